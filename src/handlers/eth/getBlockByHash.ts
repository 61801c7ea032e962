import { formatBlockRecord } from '../../format/block.js'
import { parseData } from '../../format/hex.js'
import type { Handler } from '../context.js'

/** eth_getBlockByHash: canonical blocks everywhere; the current pending block's hash on /flashblocks too. */
export const eth_getBlockByHash: Handler<'eth_getBlockByHash'> = async ([hash, hydrated], ctx) => {
  const record = await ctx.resolver.blockByHash(parseData(hash))
  return record ? formatBlockRecord(record, hydrated ?? false) : null
}
