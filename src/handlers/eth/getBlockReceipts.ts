import { formatReceipt } from '../../format/receipt.js'
import { lookupBlock } from '../block-param.js'
import type { Handler } from '../context.js'

/** eth_getBlockReceipts: every receipt of the block in order; null for an unknown block, as geth. */
export const eth_getBlockReceipts: Handler<'eth_getBlockReceipts'> = async ([block], ctx) => {
  const record = await lookupBlock(ctx, block)
  return record ? record.txs.map((_, i) => formatReceipt(record, i)) : null
}
