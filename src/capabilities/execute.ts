/**
 * Executing without committing: eth_call, eth_estimateGas and debug_trace*. The embedded chain runs its
 * EVM on a block's state; a follower may run its own EVM over remote state or ask its upstream node.
 */
import type { Eventually } from './eventually.js'
import type { BlockOverrideSpec } from '../domain/block-overrides.js'
import type { CallRequest, StateOverrideSpec } from '../domain/call-request.js'
import type { SimulatedBlock, SimulateRequest } from '../domain/simulate.js'
import type { BlockRecord } from '../domain/types.js'

/** debug_trace*'s options (the wire TraceConfig, read as is). */
export type TraceOptions = {
  tracer?: 'callTracer' | 'prestateTracer'
  tracerConfig?: { onlyTopCall?: boolean; withLog?: boolean; diffMode?: boolean }
  disableStack?: boolean
  disableStorage?: boolean
  enableMemory?: boolean
  enableReturnData?: boolean
  timeout?: string
}

/** debug_traceCall's options: a trace config, and the call's state and block overrides. */
export type TraceCallOptions = TraceOptions & {
  stateOverrides?: StateOverrideSpec
  blockOverrides?: BlockOverrideSpec
  /** Run on the state before the block's transaction at this index instead of after the block (geth's). */
  txIndex?: number
}

/** A block to replay and the block before it, whose state the replay starts from. */
export interface TraceTarget {
  block: BlockRecord
  parent: BlockRecord
}

/** eth_createAccessList: what the request touches, the gas it uses with that list, and how it failed, if it did. */
export interface AccessListResult {
  accessList: NonNullable<CallRequest['accessList']>
  gasUsed: bigint
  /** geth's text for a failed execution (`execution reverted`, `out of gas`...). */
  error?: string
}

export interface Executor {
  /**
   * The call's output on the block's state (at once when it was answered from memory); a revert throws geth's
   * code 3 with the revert data.
   */
  call(
    block: BlockRecord,
    request: CallRequest,
    overrides?: StateOverrideSpec,
    blockOverrides?: BlockOverrideSpec,
  ): Eventually<Uint8Array>
  /** The least gas with which the request succeeds on the block's state. */
  estimateGas(
    block: BlockRecord,
    request: CallRequest,
    overrides?: StateOverrideSpec,
    blockOverrides?: BlockOverrideSpec,
  ): Promise<bigint>
  createAccessList(block: BlockRecord, request: CallRequest, overrides?: StateOverrideSpec): Promise<AccessListResult>
  /** eth_simulateV1: blocks built on the block's state from the request's calls and overrides; nothing is kept. */
  simulate(block: BlockRecord, request: SimulateRequest): Promise<SimulatedBlock[]>
  /** Traces of the transactions at `indexes` of the target block, in that order. */
  trace(target: TraceTarget, indexes: number[], options: TraceOptions): Promise<unknown[]>
  /**
   * debug_traceCall: the request run as eth_call runs it on the block's state, traced; with `txIndex`, on
   * the state before that transaction, replayed from `parent`'s.
   */
  traceCall(block: BlockRecord, request: CallRequest, options: TraceCallOptions, parent?: BlockRecord): Promise<unknown>
}
