/**
 * The parts of the embedded chain the dev node drives (Chain passes itself): its state, pool, sequencer and
 * store, the next block's settings, and the chain's own executor, whose memoised answers an edit makes stale.
 * An interface here rather than the Chain class, so src/chain/chain.ts and this folder do not import each other.
 */
import type { Common } from '@ethereumjs/common'
import type { VM } from '@ethereumjs/vm'
import type { BlockRecord } from '../../domain/types.js'
import type { ChainEvents, TypedEmitter } from '../../evm/events.js'
import type { EmbeddedExecutor } from '../../evm/execution/executor.js'
import type { PendingStore } from '../../pending/store.js'
import type { ForkMode } from '../fork/fork-mode.js'
import type { ForkTarget } from '../fork/upstream-fork.js'
import type { SwitchableLogger } from '../logger.js'
import type { Persistence } from '../persist/persistence.js'
import type { Preimages } from '../persist/preimages.js'
import type { Pruner } from '../persist/prune.js'
import type { TxPool } from '../pool/pool.js'
import type { Sequencer } from '../sequencer.js'
import type { CanonicalStore } from '../store.js'
import type { NextBlock } from './next-block.js'
import type { RootAliases } from './root-aliases.js'

export interface DevChain {
  readonly common: Common
  readonly vm: VM
  readonly events: TypedEmitter<ChainEvents>
  readonly pool: TxPool
  readonly sequencer: Sequencer
  readonly store: CanonicalStore
  readonly pending: PendingStore
  readonly persistence?: Persistence
  readonly options: { readonly fork?: ForkMode; readonly preimages: Preimages; readonly pruner?: Pruner }
  readonly localExecutor: EmbeddedExecutor
  readonly logger: SwitchableLogger
  readonly roots: RootAliases
  readonly nextBlock: NextBlock
  refork(target: Partial<ForkTarget>): Promise<BlockRecord>
  mine(): Promise<BlockRecord>
  start(): void
}
