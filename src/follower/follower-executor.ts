/**
 * A follower's Executor. eth_call runs here, in the same EVM code as the embedded chain, on upstream-backed
 * state: the pending block's re-executed state, or a canonical block's state read from the upstream at
 * its number (batched, cached per block), so answers equal the leader's and state overrides work.
 * eth_estimateGas and debug_trace* are the upstream's to answer (forwarded at the block's number; on
 * `pending` the estimate is the upstream's at its head).
 */
import type { Common } from '@ethereumjs/common'
import { createVM, type VM } from '@ethereumjs/vm'
import type { Executor, TraceOptions, TraceTarget } from '../capabilities/execute.js'
import { call } from '../chain/execution/call.js'
import { applyOverrides } from '../chain/execution/run.js'
import type { VmPool } from '../chain/execution/vm-pool.js'
import type { CallRequest, StateOverrideSpec } from '../domain/call-request.js'
import { keyOf } from '../domain/block-record.js'
import type { BlockRecord } from '../domain/types.js'
import { data, parseQuantity, quantity } from '../format/hex.js'
import { callRequestJson } from './call-json.js'
import type { FollowerState } from './follower-state.js'
import type { UpstreamRpc } from './upstream-rpc.js'

export interface FollowerExecutorParts {
  upstream: UpstreamRpc
  common: Common
  state: FollowerState
  /** The pending block now (the newest flashblock's), if any. */
  pendingBlock(): BlockRecord | undefined
}

export class FollowerExecutor implements Executor {
  constructor(private readonly parts: FollowerExecutorParts) {}

  async call(block: BlockRecord, request: CallRequest, overrides?: StateOverrideSpec): Promise<Uint8Array> {
    const { common, state } = this.parts
    const base = this.isPending(block) ? state.pendingState(block.header.stateRoot) : undefined
    const stateManager = base ?? state.canonicalState(block.number, block.header.stateRoot)
    // call() borrows a VM through `vms.run`: one VM on this block's upstream-backed state, written to only here
    const vms = {
      run: async <T>(_root: Uint8Array, work: (vm: VM) => Promise<T>): Promise<T> => {
        if (overrides) await applyOverrides(stateManager as never, overrides)
        return work(await createVM({ common, stateManager, blockchain: state.blockHashes }))
      },
    } as unknown as VmPool
    const vm = { common, blockchain: state.blockHashes } as unknown as VM
    return call({ vm, vms, stateRoot: block.header.stateRoot, header: block.header }, request)
  }

  async estimateGas(block: BlockRecord, request: CallRequest): Promise<bigint> {
    const tag = this.isPending(block) ? 'latest' : quantity(block.number)
    return parseQuantity(await this.parts.upstream.call<string>('eth_estimateGas', [callRequestJson(request), tag]))
  }

  async trace({ block }: TraceTarget, indexes: number[], options: TraceOptions): Promise<unknown[]> {
    return Promise.all(
      indexes.map((i) => this.parts.upstream.call('debug_traceTransaction', [data(block.txs[i].hash), options])),
    )
  }

  private isPending(block: BlockRecord): boolean {
    const pending = this.parts.pendingBlock()
    return pending !== undefined && keyOf(pending.hash) === keyOf(block.hash)
  }
}
