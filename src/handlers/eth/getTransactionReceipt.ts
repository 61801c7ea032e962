import { parseData } from '../../format/hex.js'
import { formatReceipt } from '../../format/receipt.js'
import type { Handler } from '../context.js'

/**
 * eth_getTransactionReceipt: canonical first, then (on /flashblocks) the preconfirmed block, whose number
 * and hash as of that flashblock the receipt carries; null while the transaction is not in a block.
 */
export const eth_getTransactionReceipt: Handler<'eth_getTransactionReceipt'> = async ([hash], ctx) => {
  const located = await ctx.resolver.tx(parseData(hash))
  return located ? formatReceipt(located.block, located.index) : null
}
