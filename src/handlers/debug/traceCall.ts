import type { BlockRecord } from '../../domain/types.js'
import {
  NoTransactionInGenesisError,
  TraceBlockHashNotFoundError,
  TraceBlockNotFoundError,
  TraceTxIndexOutOfRangeError,
} from '../../errors.js'
import { data, parseQuantity } from '../../format/hex.js'
import type { TraceResult } from '../../../generated/types.js'
import { type BlockParam, toSelector } from '../block-param.js'
import { parseCallBlockOverrides } from '../block-overrides.js'
import { parseCallRequest } from '../parse-call-request.js'
import { parseStateOverrides } from '../parse-state-overrides.js'
import { traceTarget } from '../trace-target.js'
import type { Handler, HandlerContext } from '../context.js'

/**
 * debug_traceCall [transaction, block = latest, options?]: the call run as eth_call runs it on the block's
 * state, with `options.stateOverrides` and `options.blockOverrides`, traced with the chosen tracer (struct
 * logger by default). `pending` goes through the endpoint's resolver as eth_call's: the preconfirmed state
 * on /flashblocks, the latest block on / (geth refuses `pending`). With `txIndex`, the state is the one before
 * that transaction of the block, as geth.
 */
export const debug_traceCall: Handler<'debug_traceCall'> = async ([transaction, block, options], ctx) => {
  const request = parseCallRequest(transaction)
  const { stateOverrides, blockOverrides, txIndex, ...config } = options ?? {}
  const traceOptions = {
    ...config,
    stateOverrides: stateOverrides ? parseStateOverrides(stateOverrides) : undefined,
    blockOverrides: parseCallBlockOverrides(blockOverrides),
    txIndex: txIndex === undefined ? undefined : Number(parseQuantity(txIndex)),
  }
  const at = await traceCallBlock(ctx, block)
  const parent = traceOptions.txIndex === undefined ? undefined : await parentFor(ctx, at, traceOptions.txIndex)
  return (await ctx.execution.traceCall(at, request, traceOptions, parent)) as TraceResult
}

/** The block `txIndex` replays from, with geth's StateAtTransaction errors. */
async function parentFor(ctx: HandlerContext, block: BlockRecord, txIndex: number): Promise<BlockRecord> {
  if (block.number === 0n) throw new NoTransactionInGenesisError()
  const count = block.txs.length
  if (txIndex >= count && !(txIndex === 0 && count === 0))
    throw new TraceTxIndexOutOfRangeError(txIndex, data(block.hash))
  return (await traceTarget(ctx, block)).parent
}

/** The block to trace on; geth's -32000 `block #N not found` / `block 0x… not found` when there is none. */
async function traceCallBlock(ctx: HandlerContext, param: BlockParam | undefined): Promise<BlockRecord> {
  const selector = toSelector(param)
  const block = await ctx.resolver.block(selector)
  if (block) return block
  if (typeof selector === 'object' && 'blockHash' in selector)
    throw new TraceBlockHashNotFoundError(data(selector.blockHash))
  throw new TraceBlockNotFoundError(typeof selector === 'bigint' ? `#${selector}` : String(param))
}
