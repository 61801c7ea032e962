/**
 * The bridge from handlers to src/chain/execution: resolves the block a call names through this endpoint's
 * resolver and hands the execution functions a request in their terms.
 * PROVISIONAL: the execution module is being written; until it lands, these answer -32603.
 */
import { InternalError, InvalidInputError } from '../errors.js'
import type { BlockSelector } from '../pending/resolver.js'
import type { BlockRecord } from '../chain/types.js'
import type { BlockTraceResult, StateOverrides, TraceConfig, TraceResult } from '../../generated/types.js'
import type { HandlerContext } from './context.js'
import type { TraceTarget } from './trace-target.js'
import type { TransactionRequest } from './tx-request.js'

/** The block a call or estimate runs on; geth's `header not found` when this endpoint does not know it. */
export function executionBlock(ctx: HandlerContext, selector: BlockSelector): BlockRecord {
  const block = ctx.resolver.block(selector)
  if (!block) throw new InvalidInputError('header not found')
  return block
}

const unavailable = () => new InternalError('execution is not available yet')

export async function callAt(_ctx: HandlerContext, _request: TransactionRequest, _block: BlockRecord, _overrides?: StateOverrides): Promise<Uint8Array> {
  throw unavailable()
}

export async function estimateGasFor(ctx: HandlerContext, _request: TransactionRequest, selector: BlockSelector): Promise<bigint> {
  executionBlock(ctx, selector)
  throw unavailable()
}

export async function traceTransactionIn(_ctx: HandlerContext, _target: TraceTarget, _index: number, _options: TraceConfig): Promise<TraceResult> {
  throw unavailable()
}

export async function traceBlockIn(_ctx: HandlerContext, _target: TraceTarget, _options: TraceConfig): Promise<BlockTraceResult> {
  throw unavailable()
}
