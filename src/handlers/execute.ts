/**
 * The bridge from handlers to src/chain/execution: resolves the block a call or trace names through this
 * endpoint's resolver and hands the execution functions their environment (the chain's VM, a state root,
 * a header). The pending block on /flashblocks is an ordinary block here: its header and its state root
 * as of the newest flashblock.
 */
import { call } from '../chain/execution/call.js'
import { estimateGas } from '../chain/execution/estimate.js'
import type { AccountOverride, ExecutionEnv, StateOverride } from '../chain/execution/run.js'
import { traceTransactions } from '../chain/execution/trace/trace.js'
import type { BlockRecord } from '../chain/types.js'
import { InvalidInputError, InvalidParamsError } from '../errors.js'
import { data, parseData, parseQuantity } from '../format/hex.js'
import type { BlockSelector } from '../pending/resolver.js'
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

function envAt(ctx: HandlerContext, block: BlockRecord): ExecutionEnv {
  return { vm: ctx.chain.vm, stateRoot: block.header.stateRoot, header: block.header }
}

export function callAt(ctx: HandlerContext, request: TransactionRequest, block: BlockRecord, overrides?: StateOverrides): Promise<Uint8Array> {
  return call(envAt(ctx, block), request, overrides ? parseStateOverrides(overrides) : undefined)
}

export function estimateGasFor(ctx: HandlerContext, request: TransactionRequest, selector: BlockSelector): Promise<bigint> {
  return estimateGas(envAt(ctx, executionBlock(ctx, selector)), request)
}

export async function traceTransactionIn(ctx: HandlerContext, target: TraceTarget, index: number, options: TraceConfig): Promise<TraceResult> {
  const [result] = await traceTransactions(traceEnv(ctx, target), [index], options)
  return result as TraceResult
}

export async function traceBlockIn(ctx: HandlerContext, target: TraceTarget, options: TraceConfig): Promise<BlockTraceResult> {
  const { txs } = target.block
  const results = await traceTransactions(traceEnv(ctx, target), txs.map((_, i) => i), options)
  return results.map((result, i) => ({ txHash: data(txs[i]!.hash), result: result as TraceResult }))
}

function traceEnv(ctx: HandlerContext, { block, parentStateRoot }: TraceTarget) {
  return { vm: ctx.chain.vm, parentStateRoot, header: block.header, txs: block.txs.map((t) => t.tx) }
}

/** eth_call's third parameter in domain form; `state` and `stateDiff` together is geth's error. */
export function parseStateOverrides(wire: StateOverrides): StateOverride {
  const overrides: StateOverride = new Map()
  for (const [address, o] of Object.entries(wire)) {
    if (o.state && o.stateDiff) throw new InvalidInputError(`account ${address} has both 'state' and 'stateDiff'`)
    const account: AccountOverride = {}
    if (o.balance !== undefined) account.balance = parseQuantity(o.balance)
    if (o.nonce !== undefined) account.nonce = parseQuantity(o.nonce)
    if (o.code !== undefined) account.code = parseData(o.code)
    if (o.state) account.state = slots(o.state)
    if (o.stateDiff) account.stateDiff = slots(o.stateDiff)
    overrides.set(address.toLowerCase(), account)
  }
  return overrides
}

const WORD = /^0x[0-9a-fA-F]{1,64}$/

function slots(map: Record<string, unknown>): Map<bigint, bigint> {
  return new Map(Object.entries(map).map(([slot, value]) => {
    if (!WORD.test(slot) || typeof value !== 'string' || !WORD.test(value)) {
      throw new InvalidParamsError(`invalid argument 2 (stateOverrides): storage ${JSON.stringify(slot)}: ${JSON.stringify(value)} is not a 32-byte slot and value`)
    }
    return [BigInt(slot), BigInt(value)]
  }))
}
