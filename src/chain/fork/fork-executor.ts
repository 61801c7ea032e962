/**
 * A forked chain's Executor: calls, estimates, simulations and traces on a local block run on the chain's
 * own EVM (the local trie reading through to the upstream, fork-state.ts); on the fork block or an earlier
 * one they run on that block's upstream state, as a follower runs them (its traces of an upstream block
 * are the upstream's answer).
 */
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
import type { UpstreamSnapshot } from '../../follower/upstream-snapshot.js'

const ZERO_ADDRESS = new Uint8Array(20)

export class ForkExecutor implements Executor {
  constructor(
    private readonly local: Executor,
    private readonly upstream: Executor,
    /** The fork block with its local state root (the store's first): what local block N+1 starts from. */
    private readonly base: () => BlockRecord,
    /** The upstream's state a block reads: its own at or below the fork block, the fork block's above. */
    private readonly snapshot: (number: bigint) => UpstreamSnapshot,
  ) {}

  private on(block: BlockRecord): Executor {
    return block.number > this.base().number ? this.local : this.upstream
  }

  async call(
    block: BlockRecord,
    request: CallRequest,
    overrides?: StateOverrideSpec,
    blockOverrides?: BlockOverrideSpec,
  ): Promise<Uint8Array> {
    await this.prefetch(block, request)
    return this.on(block).call(block, request, overrides, blockOverrides)
  }

  async estimateGas(
    block: BlockRecord,
    request: CallRequest,
    overrides?: StateOverrideSpec,
    blockOverrides?: BlockOverrideSpec,
  ): Promise<bigint> {
    await this.prefetch(block, request)
    return this.on(block).estimateGas(block, request, overrides, blockOverrides)
  }

  /**
   * The EVM reads the sender, then the callee and its code, then storage: one upstream round trip each when
   * none was read before. Asking for both accounts at once saves the first (bench/fork.ts counts them).
   */
  private async prefetch(block: BlockRecord, { from, to }: CallRequest): Promise<void> {
    const snapshot = this.snapshot(block.number)
    const unread = [from ?? ZERO_ADDRESS, to].filter((a): a is Uint8Array => a !== undefined && !snapshot.has(a))
    if (unread.length > 1) await snapshot.prefetch(unread)
  }

  createAccessList(block: BlockRecord, request: CallRequest, overrides?: StateOverrideSpec): Promise<AccessListResult> {
    return this.on(block).createAccessList(block, request, overrides)
  }

  simulate(block: BlockRecord, request: SimulateRequest): Promise<SimulatedBlock[]> {
    return this.on(block).simulate(block, request)
  }

  trace(target: TraceTarget, indexes: number[], options: TraceOptions): Promise<unknown[]> {
    const { block, parent } = target
    // readers show the upstream's fork block, whose root is not in the local trie
    const base = this.base()
    const start = parent.number === base.number ? base : parent
    return this.on(block).trace({ block, parent: start }, indexes, options)
  }

  async traceCall(
    block: BlockRecord,
    request: CallRequest,
    options: TraceCallOptions,
    parent?: BlockRecord,
  ): Promise<unknown> {
    await this.prefetch(block, request)
    // a replay up to `txIndex` starts from the parent, which for local block N+1 is the upstream's fork block
    const base = this.base()
    const start = parent && parent.number === base.number ? base : parent
    return this.on(block).traceCall(block, request, options, start)
  }
}
