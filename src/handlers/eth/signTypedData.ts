import { typedDataSignature, unlockedAccount } from '../dev-accounts.js'
import type { Handler } from '../context.js'

/** eth_signTypedData_v4 [address, typedData]: an EIP-712 signature by an unlocked dev account (MetaMask's v4). */
export const eth_signTypedData_v4: Handler<'eth_signTypedData_v4'> = ([address, typedData], ctx) =>
  typedDataSignature(unlockedAccount(ctx, address), typedData, '1 (typedData)')
