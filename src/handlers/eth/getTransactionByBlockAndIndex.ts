/** A transaction by its block and position; null when the block or the index does not exist, as geth. */
import { parseData, parseQuantity } from '../../format/hex.js'
import type { BlockRecord } from '../../domain/types.js'
import { lookupBlock } from '../block-param.js'
import type { Handler } from '../context.js'
import { formatTxInBlock } from '../../format/block.js'

function at(block: BlockRecord | undefined, indexHex: string) {
  const index = parseQuantity(indexHex)
  return block && index < BigInt(block.txs.length) ? formatTxInBlock(block, Number(index)) : null
}

export const eth_getTransactionByBlockHashAndIndex: Handler<'eth_getTransactionByBlockHashAndIndex'> = async (
  [hash, index],
  ctx,
) => at(await ctx.resolver.blockByHash(parseData(hash)), index)

export const eth_getTransactionByBlockNumberAndIndex: Handler<'eth_getTransactionByBlockNumberAndIndex'> = async (
  [block, index],
  ctx,
) => at(await lookupBlock(ctx, block), index)
