import { personalSignature, unlockedAccount } from '../dev-accounts.js'
import type { Handler } from '../context.js'

/** eth_sign [address, message]: an EIP-191 personal signature by an unlocked dev account, as geth's. */
export const eth_sign: Handler<'eth_sign'> = ([address, message], ctx) =>
  personalSignature(unlockedAccount(ctx, address), message)
