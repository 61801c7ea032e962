import { parseData, quantity } from '../../format/hex.js'
import { isPendingSelector, stateView, toSelector } from '../block-param.js'
import type { Handler } from '../context.js'

/**
 * eth_getTransactionCount: the account's nonce at the block. Under `pending` it also counts the pool's
 * consecutive nonces (as geth and xlayer-reth do), so a wallet can send its next transaction at once.
 */
export const eth_getTransactionCount: Handler<'eth_getTransactionCount'> = async ([address, block], ctx) => {
  const bytes = parseData(address)
  if (isPendingSelector(toSelector(block))) return quantity(await ctx.resolver.pendingNonce(bytes))
  return quantity(await (await stateView(ctx, block)).nonce(bytes))
}
