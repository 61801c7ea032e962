/**
 * The bridge from handlers to src/chain/execution: resolves the block a call names through this endpoint's
 * resolver and hands the execution functions a request in their terms.
 */
import { call } from '../chain/execution/call.js'
import { estimateGas } from '../chain/execution/estimate.js'
import type { ExecutionEnv, StateOverride } from '../chain/execution/run.js'
import { traceTransactions, type TraceEnv } from '../chain/execution/trace/trace.js'
import { InvalidInputError } from '../errors.js'
import { data, parseData, parseQuantity } from '../format/hex.js'
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

function envFor(ctx: HandlerContext, block: BlockRecord): ExecutionEnv {
  return { vm: ctx.chain.vm, stateRoot: block.header.stateRoot, header: block.header }
}

function parseOverrides(overrides: StateOverrides): StateOverride {
  const parsed: StateOverride = new Map()
  const slots = (map?: Record<string, unknown>) =>
    map ? new Map(Object.entries(map).map(([k, v]) => [BigInt(k), BigInt(String(v))])) : undefined
  for (const [address, o] of Object.entries(overrides)) {
    parsed.set(address, {
      balance: o.balance === undefined ? undefined : parseQuantity(o.balance),
      nonce: o.nonce === undefined ? undefined : parseQuantity(o.nonce),
      code: o.code === undefined ? undefined : parseData(o.code),
      state: slots(o.state), stateDiff: slots(o.stateDiff),
    })
  }
  return parsed
}

export async function callAt(ctx: HandlerContext, request: TransactionRequest, block: BlockRecord, overrides?: StateOverrides): Promise<Uint8Array> {
  return call(envFor(ctx, block), request, overrides ? parseOverrides(overrides) : undefined)
}

export async function estimateGasFor(ctx: HandlerContext, request: TransactionRequest, selector: BlockSelector): Promise<bigint> {
  return estimateGas(envFor(ctx, executionBlock(ctx, selector)), request)
}

function traceEnv(ctx: HandlerContext, target: TraceTarget): TraceEnv {
  return { vm: ctx.chain.vm, parentStateRoot: target.parentStateRoot, header: target.block.header, txs: target.block.txs.map((t) => t.tx) }
}

export async function traceTransactionIn(ctx: HandlerContext, target: TraceTarget, index: number, options: TraceConfig): Promise<TraceResult> {
  const [result] = await traceTransactions(traceEnv(ctx, target), [index], options)
  return result as TraceResult
}

export async function traceBlockIn(ctx: HandlerContext, target: TraceTarget, options: TraceConfig): Promise<BlockTraceResult> {
  const txs = target.block.txs
  if (txs.length === 0) return []
  const results = await traceTransactions(traceEnv(ctx, target), txs.map((_, i) => i), options)
  return results.map((result, i) => ({ txHash: data(txs[i].hash), result: result as TraceResult }))
}
