import { personalSignature, unlockedAccount } from '../dev-accounts.js'
import type { Handler } from '../context.js'

/** personal_sign [message, address]: eth_sign's signature, params the other way round (viem's signMessage). */
export const personal_sign: Handler<'personal_sign'> = ([message, address], ctx) =>
  personalSignature(unlockedAccount(ctx, address), message)
