/**
 * debug_getRaw*: a block, header, receipts or transaction in consensus encoding, as geth (the block by
 * number, tag or hash; `pending` is the newest flashblock's block on /flashblocks).
 */
import { encodeBlockRecord, encodeReceiptRecord } from '../../domain/raw-encoding.js'
import type { BlockRecord } from '../../domain/types.js'
import { TraceBlockNotFoundError } from '../../errors.js'
import { data, parseData } from '../../format/hex.js'
import { type BlockParam, toSelector } from '../block-param.js'
import type { Handler, HandlerContext } from '../context.js'

/** The block a debug_getRaw* call names; geth's -32000 `block #N not found` when there is none. */
async function rawTarget(ctx: HandlerContext, param: BlockParam): Promise<BlockRecord> {
  const selector = toSelector(param)
  const block = await ctx.resolver.block(selector)
  if (block) return block
  throw new TraceBlockNotFoundError(typeof selector === 'bigint' ? `#${selector}` : String(param))
}

export const debug_getRawBlock: Handler<'debug_getRawBlock'> = async ([block], ctx) =>
  data(encodeBlockRecord(await rawTarget(ctx, block)))

export const debug_getRawHeader: Handler<'debug_getRawHeader'> = async ([block], ctx) =>
  data((await rawTarget(ctx, block)).header.serialize())

export const debug_getRawReceipts: Handler<'debug_getRawReceipts'> = async ([block], ctx) =>
  (await rawTarget(ctx, block)).receipts.map((r) => data(encodeReceiptRecord(r)))

/** The EIP-2718 bytes of a transaction in a block or in the pool; `0x` for an unknown hash, as geth. */
export const debug_getRawTransaction: Handler<'debug_getRawTransaction'> = async ([hash], ctx) => {
  const key = parseData(hash)
  const record = (await ctx.resolver.tx(key))?.tx ?? (await ctx.resolver.unsealedTx(key))
  return data(record?.raw ?? new Uint8Array())
}
