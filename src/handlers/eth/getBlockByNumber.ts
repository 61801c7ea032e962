import { formatBlockRecord } from '../../format/block.js'
import { lookupBlock } from '../block-param.js'
import type { Handler } from '../context.js'

/** eth_getBlockByNumber: the block with tx hashes or full txs; null past the head. `pending` on /flashblocks is the flashblock view. */
export const eth_getBlockByNumber: Handler<'eth_getBlockByNumber'> = async ([block, hydrated], ctx) => {
  const record = await lookupBlock(ctx, block)
  return record ? formatBlockRecord(record, hydrated ?? false) : null
}
