/**
 * A follower's Executor. eth_call and eth_estimateGas run here, in the same EVM code as the embedded chain,
 * on upstream-backed state: the pending block's re-executed state, or a canonical block's state read from
 * the upstream at its number (batched, cached per block), so answers equal the leader's and state
 * overrides work. debug_trace* of the pending block re-executes it here on its parent's upstream-backed state
 * (the upstream has not got it); of a canonical block it is the upstream's to answer (forwarded per hash).
 */
import type { Eventually } from '../capabilities/eventually.js'
import type { Common } from '@ethereumjs/common'
import type { EVM } from '@ethereumjs/evm'
import { createVM, type VM } from '@ethereumjs/vm'
import type {
  AccessListResult,
  Executor,
  TraceCallOptions,
  TraceOptions,
  TraceTarget,
} from '../capabilities/execute.js'
import type { BlockOverrideSpec } from '../domain/block-overrides.js'
import { withBlockOverrides } from '../evm/execution/block-overrides.js'
import { traceCall } from '../evm/execution/trace/trace-call.js'
import { throwawayVmCommon } from '../evm/chain-common.js'
import { createAccessList } from '../evm/execution/access-list.js'
import { call } from '../evm/execution/call.js'
import { estimateGas } from '../evm/execution/estimate.js'
import type { ExecutionEnv } from '../evm/execution/run.js'
import { applyStateOverrides } from '../evm/execution/state-overrides.js'
import { type TraceEnv, traceTransactions } from '../evm/execution/trace/trace.js'
import type { VmPool } from '../evm/execution/vm-pool.js'
import { CallEvms } from '../evm/execution/fast-call.js'
import type { CallRequest, StateOverrideSpec } from '../domain/call-request.js'
import type { SimulatedBlock, SimulateRequest } from '../domain/simulate.js'
import { simulate } from '../evm/execution/simulate/simulate.js'
import { keyOf } from '../domain/block-record.js'
import type { BlockRecord } from '../domain/types.js'
import { data } from '../format/hex.js'
import type { FollowerState } from './follower-state.js'
import type { UpstreamRpc } from './upstream-rpc.js'
import type { UpstreamStateManager } from './upstream-state.js'
import { answerCreationCollisions } from './create-collision.js'

export interface FollowerExecutorParts {
  upstream: UpstreamRpc
  common: Common
  state: FollowerState
  /** The pending block now (the newest flashblock's), if any. */
  pendingBlock(): BlockRecord | undefined
  /** Each request's time budget (ms; --rpc.evmtimeout, 0 = none); default CALL_TIMEOUT_MS. */
  timeoutMs?: number
}

export class FollowerExecutor implements Executor {
  /** Plain calls' EVMs and answers, as on the embedded chain (fast-call.ts). */
  private readonly calls: CallEvms

  constructor(private readonly parts: FollowerExecutorParts) {
    const evmHost = { common: parts.common, blockchain: parts.state.blockHashes } as unknown as VM
    this.calls = new CallEvms(evmHost, parts.timeoutMs)
    this.calls.prepare()
  }

  call(
    block: BlockRecord,
    request: CallRequest,
    overrides?: StateOverrideSpec,
    blockOverrides?: BlockOverrideSpec,
  ): Eventually<Uint8Array> {
    // with block overrides, state overrides go to the run's own VM (run.ts), on a fresh copy of the state
    if (blockOverrides)
      return call(withBlockOverrides(this.plainEnv(block), blockOverrides, 'call'), request, overrides)
    return call(overrides ? this.env(block, overrides) : this.plainEnv(block), request)
  }

  estimateGas(
    block: BlockRecord,
    request: CallRequest,
    overrides?: StateOverrideSpec,
    blockOverrides?: BlockOverrideSpec,
  ): Promise<bigint> {
    return estimateGas(withBlockOverrides(this.plainEnv(block), blockOverrides, 'call'), request, undefined, overrides)
  }

  /**
   * Run here on the block's upstream-backed state, as eth_call (the pending block's included); with
   * `txIndex`, on its parent's with the transactions before that one replayed.
   */
  traceCall(
    block: BlockRecord,
    request: CallRequest,
    options: TraceCallOptions,
    parent?: BlockRecord,
  ): Promise<unknown> {
    return traceCall(this.env(block), request, options, parent && (() => this.traceEnv(block, parent)))
  }

  /** A replay of the block on its parent's upstream-backed state (a fresh one each time). */
  private traceEnv(block: BlockRecord, parent: BlockRecord): TraceEnv {
    const { common, state } = this.parts
    return {
      vm: { common, blockchain: state.blockHashes } as unknown as VM,
      parentStateRoot: parent.header.stateRoot,
      parentState: state.canonicalState(parent.number, parent.header.stateRoot),
      header: block.header,
      txs: block.txs.map((t) => t.tx),
      firstLogIndexes: block.receipts.map((r) => r.firstLogIndex),
    }
  }

  createAccessList(block: BlockRecord, request: CallRequest, overrides?: StateOverrideSpec): Promise<AccessListResult> {
    return createAccessList(this.env(block, overrides), request)
  }

  /** On upstream-backed state, which has no trie: the simulated blocks' state roots are not computed. */
  simulate(block: BlockRecord, request: SimulateRequest): Promise<SimulatedBlock[]> {
    const { common, state } = this.parts
    const base = {
      common,
      base: block,
      state: this.env(block).readState!(),
      blockHashes: state.blockHashes as never,
      timeoutMs: this.parts.timeoutMs,
    }
    return simulate(base, request)
  }

  async trace({ block, parent }: TraceTarget, indexes: number[], options: TraceOptions): Promise<unknown[]> {
    if (this.isPending(block)) return traceTransactions(this.traceEnv(block, parent), indexes, options)
    return Promise.all(
      indexes.map((i) => this.parts.upstream.call('debug_traceTransaction', [data(block.txs[i].hash), options])),
    )
  }

  /**
   * The execution environment of the embedded chain, over this block's upstream-backed state: every run
   * (an estimate makes several) gets a fresh copy, so nothing one run writes is seen by the next.
   */
  private env(block: BlockRecord, overrides?: StateOverrideSpec): ExecutionEnv {
    const { common, state } = this.parts
    const fresh = () => this.blockState(block, true)
    const vms = {
      run: async <T>(_root: Uint8Array, work: (vm: VM) => Promise<T>): Promise<T> => {
        const vm = await createVM({
          common: throwawayVmCommon(common),
          stateManager: fresh(),
          blockchain: state.blockHashes,
        })
        answerCreationCollisions(vm.evm as EVM)
        await applyStateOverrides(vm, overrides)
        return work(vm)
      },
    } as unknown as VmPool
    const vm = { common, blockchain: state.blockHashes } as unknown as VM
    const { timeoutMs } = this.parts
    return { vm, vms, stateRoot: block.header.stateRoot, header: block.header, readState: fresh, timeoutMs }
  }

  /** The env with the plain-call path: it reads the block's state as it is (a call's writes stay in its CallState). */
  private plainEnv(block: BlockRecord): ExecutionEnv {
    return { ...this.env(block), view: this.blockState(block, false), calls: this.calls }
  }

  /**
   * The block's upstream-backed state: a kept pending root's re-executed state (as a copy a run may write to,
   * or `writable` false, itself, for a reader that never writes), else a canonical block's, new each time.
   */
  private blockState(block: BlockRecord, writable: boolean): UpstreamStateManager {
    const { state } = this.parts
    const root = block.header.stateRoot
    const pending = this.isPending(block) ? (writable ? state.pendingState(root) : state.pendingView(root)) : undefined
    return pending ?? state.canonicalState(block.number, root)
  }

  private isPending(block: BlockRecord): boolean {
    const pending = this.parts.pendingBlock()
    return pending !== undefined && keyOf(pending.hash) === keyOf(block.hash)
  }
}
