/**
 * What fork mode adds to the embedded chain, in one place: the readers and executor that send the fork
 * block and below to the upstream, and anvil_reset's re-fork (`forking: {jsonRpcUrl, blockNumber}`).
 */
import type { VM } from '@ethereumjs/vm'
import type { Executor } from '../../capabilities/execute.js'
import type { BlockReader } from '../../capabilities/read.js'
import type { BlockRecord } from '../../domain/types.js'
import { InvalidParamsError } from '../../errors.js'
import { stateAt } from '../../evm/state-views.js'
import { nextBaseFee } from '../../opstack/base-fee.js'
import type { PendingStore } from '../../pending/store.js'
import type { BlockResolver } from '../../pending/resolver.js'
import type { TxPool } from '../pool/pool.js'
import type { Sequencer } from '../sequencer.js'
import type { CanonicalStore } from '../store.js'
import { ForkExecutor } from './fork-executor.js'
import { type ForkGenesisOptions, forkGenesis } from './fork-genesis.js'
import { ForkReader } from './fork-reader.js'
import type { ForkStateManager } from './fork-state.js'
import { type ForkTarget, reachFork, type UpstreamFork } from './upstream-fork.js'

/** The parts of the chain a re-fork resets (Chain passes itself). */
export interface ReforkedChain {
  readonly vm: VM
  readonly chainId: bigint
  readonly store: CanonicalStore
  readonly pending: PendingStore
  readonly pool: TxPool
  readonly sequencer: Sequencer
}

export class ForkMode {
  constructor(
    readonly upstream: UpstreamFork,
    private readonly funding: ForkGenesisOptions,
  ) {}

  reader(resolver: BlockResolver): BlockReader {
    return new ForkReader(resolver, this.upstream)
  }

  executor(local: Executor, base: () => BlockRecord): Executor {
    const { upstream } = this
    const snapshot = (n: bigint) => upstream.state.snapshotFor(n < upstream.number ? n : upstream.number)
    return new ForkExecutor(local, this.upstream.executor, base, snapshot)
  }

  /**
   * Starts the chain again on `target` (default: the same node at its latest block): the local trie
   * emptied, the dev accounts funded again, the store's history dropped for the new fork block. The open
   * block and the pool are the caller's to discard first (anvil_reset does that for any reset); a node of
   * another chain id is refused, since the chain's rules, pool and signatures are bound to its id.
   */
  async refork(chain: ReforkedChain, target: Partial<ForkTarget>, forgetViews: () => void): Promise<BlockRecord> {
    if (chain.sequencer.openBlock !== undefined)
      throw new Error('re-fork with a block open: discard it first (the open block is on the old fork)')
    const point = await reachFork({ url: target.url ?? this.upstream.url, blockNumber: target.blockNumber })
    if (point.chainId !== chain.chainId)
      throw new InvalidParamsError(
        `forking.jsonRpcUrl serves chain ${point.chainId}; this chain is ${chain.chainId} (restart with --fork-url to change chains)`,
      )
    await this.upstream.repoint(point)
    const state = chain.vm.stateManager as ForkStateManager
    await state.restartOn(this.upstream.state.snapshotFor(point.number))
    const genesis = await forkGenesis(this.upstream, state, this.funding)
    forgetViews()
    chain.store.restartAt(genesis)
    chain.pending.clear()
    chain.pool.setHead({
      state: stateAt(chain.vm, genesis.header.stateRoot),
      baseFee: nextBaseFee(genesis.header),
      gasLimit: genesis.header.gasLimit,
    })
    return genesis
  }
}
