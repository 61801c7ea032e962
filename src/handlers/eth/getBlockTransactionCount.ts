/** The two transaction counts of a block; null for a block this endpoint does not know, as geth. */
import { parseData, quantity } from '../../format/hex.js'
import { lookupBlock } from '../block-param.js'
import type { Handler } from '../context.js'

export const eth_getBlockTransactionCountByNumber: Handler<'eth_getBlockTransactionCountByNumber'> = async (
  [block],
  ctx,
) => {
  const record = await lookupBlock(ctx, block)
  return record ? quantity(record.txs.length) : null
}

export const eth_getBlockTransactionCountByHash: Handler<'eth_getBlockTransactionCountByHash'> = async (
  [hash],
  ctx,
) => {
  const record = await ctx.resolver.blockByHash(parseData(hash))
  return record ? quantity(record.txs.length) : null
}
