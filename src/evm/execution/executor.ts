/**
 * The embedded chain's Executor: calls, estimates and traces on the chain's own EVM, with warm VMs from
 * the chain's VmPool for calls and estimates.
 */
import type { Eventually } from '../../capabilities/eventually.js'
import type { VM } from '@ethereumjs/vm'
import type {
  AccessListResult,
  Executor,
  TraceCallOptions,
  TraceOptions,
  TraceTarget,
} from '../../capabilities/execute.js'
import type { BlockOverrideSpec } from '../../domain/block-overrides.js'
import type { CallRequest, StateOverrideSpec } from '../../domain/call-request.js'
import type { SimulatedBlock, SimulateRequest } from '../../domain/simulate.js'
import type { BlockRecord } from '../../domain/types.js'
import { isolatedStateAt } from '../state-views.js'
import { simulate } from './simulate/simulate.js'
import { createAccessList } from './access-list.js'
import { call } from './call.js'
import { estimateGas } from './estimate.js'
import type { ExecutionEnv } from './run.js'
import { type TraceEnv, traceTransactions } from './trace/trace.js'
import { traceCall } from './trace/trace-call.js'
import { withBlockOverrides } from './block-overrides.js'
import type { VmPool } from './vm-pool.js'
import { CallEvms } from './fast-call.js'
import type { StateSource } from './call-state.js'
import { CALL_TIMEOUT_MS } from '../../limits.js'

export class EmbeddedExecutor implements Executor {
  private calls: CallEvms

  /** `view` gives the chain's shared read view of a state root (Chain.stateAt). */
  constructor(
    private readonly vm: VM,
    private readonly vms: VmPool,
    private readonly view?: (root: Uint8Array) => StateSource,
    /** The state a block's root names now (the dev node's edits redirect a root); default: the root itself. */
    private readonly rootOf: (root: Uint8Array) => Uint8Array = (root) => root,
    /** Each request's time budget (ms; --rpc.evmtimeout, 0 = none). */
    private readonly timeoutMs = CALL_TIMEOUT_MS,
  ) {
    this.calls = new CallEvms(vm, timeoutMs)
    this.calls.prepare()
  }

  /** The dev node edited state under a block: answers kept per block are stale. */
  forgetCalls(): void {
    this.calls = new CallEvms(this.vm, this.timeoutMs)
  }

  call(
    block: BlockRecord,
    request: CallRequest,
    overrides?: StateOverrideSpec,
    blockOverrides?: BlockOverrideSpec,
  ): Eventually<Uint8Array> {
    return call(withBlockOverrides(this.env(block), blockOverrides, 'call'), request, overrides)
  }

  estimateGas(
    block: BlockRecord,
    request: CallRequest,
    overrides?: StateOverrideSpec,
    blockOverrides?: BlockOverrideSpec,
  ): Promise<bigint> {
    return estimateGas(withBlockOverrides(this.env(block), blockOverrides, 'call'), request, undefined, overrides)
  }

  traceCall(
    block: BlockRecord,
    request: CallRequest,
    options: TraceCallOptions,
    parent?: BlockRecord,
  ): Promise<unknown> {
    return traceCall(this.env(block), request, options, parent && (() => this.traceEnv(block, parent)))
  }

  createAccessList(block: BlockRecord, request: CallRequest, overrides?: StateOverrideSpec): Promise<AccessListResult> {
    return createAccessList(this.env(block), request, overrides)
  }

  simulate(block: BlockRecord, request: SimulateRequest): Promise<SimulatedBlock[]> {
    // the block's state with its own node store over the chain's: nothing a simulation writes is kept
    const state = isolatedStateAt(this.vm, this.rootOf(block.header.stateRoot))
    const blockHashes = this.vm.blockchain as never
    return simulate({ common: this.vm.common, base: block, state, blockHashes, timeoutMs: this.timeoutMs }, request)
  }

  trace({ block, parent }: TraceTarget, indexes: number[], options: TraceOptions): Promise<unknown[]> {
    return traceTransactions(this.traceEnv(block, parent), indexes, options)
  }

  private traceEnv(block: BlockRecord, parent: BlockRecord): TraceEnv {
    return {
      vm: this.vm,
      parentStateRoot: this.rootOf(parent.header.stateRoot),
      header: block.header,
      txs: block.txs.map((t) => t.tx),
      firstLogIndexes: block.receipts.map((r) => r.firstLogIndex),
    }
  }

  private env(block: BlockRecord): ExecutionEnv {
    const stateRoot = this.rootOf(block.header.stateRoot)
    return {
      vm: this.vm,
      vms: this.vms,
      stateRoot,
      header: block.header,
      view: this.view?.(stateRoot),
      calls: this.calls,
      timeoutMs: this.timeoutMs,
    }
  }
}
