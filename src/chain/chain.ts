/**
 * The embedded chain: genesis and dev accounts, the pool, the sequencer (flashblock every interval, seal
 * every block time), the canonical store and the pending store, wired so that a flashblock reaches the
 * pending store before any listener, and a sealed block reaches the canonical store before the pending
 * store lets go of it (no moment in which a preconfirmed transaction cannot be found).
 */
import type { Common } from '@ethereumjs/common'
import { bytesToHex, equalsBytes } from '@ethereumjs/util'
import type { MerkleStateManager } from '@ethereumjs/statemanager'
import type { VM } from '@ethereumjs/vm'
import type { Endpoint } from '../../generated/methods.js'
import type { Backend } from '../capabilities/backend.js'
import type { BackendStatus, Readiness } from '../capabilities/backend-status.js'
import { InvalidParamsError } from '../errors.js'
import type { Executor } from '../capabilities/execute.js'
import type { BlockReader } from '../capabilities/read.js'
import type { PoolContent, SendOptions, TxSubmitter } from '../capabilities/submit.js'
import { SEQUENCER_FEE_VAULT } from '../opstack/addresses.js'
import { BlockResolver } from '../pending/resolver.js'
import { PendingStore } from '../pending/store.js'
import type { ChainOptions } from './chain-options.js'
import type { StoreBlockHashes } from './block-hashes.js'
import { waitForLocation } from './wait-for-location.js'
import { nodeStore, stateAt } from '../evm/state-views.js'
import type { ChainEvents, TypedEmitter } from '../evm/events.js'
import { EmbeddedDevAccounts } from './dev-signer.js'
import { EmbeddedExecutor } from '../evm/execution/executor.js'
import type { VmPool } from '../evm/execution/vm-pool.js'
import type { TxPool } from './pool/pool.js'
import { refuseNonCanonicalIntegers } from './pool/canonical-integers.js'
import { Sequencer, type SequencerOptions } from './sequencer.js'
import { SealingReadiness } from './readiness.js'
import { merkleStateView } from './state-view.js'
import { RootReader, StateCache } from '../evm/state-cache.js'
import { SnapshotReads, type StateSnapshot } from '../evm/state-snapshot.js'
import { followingSnapshot } from './follow-snapshot.js'
import type { CanonicalStore } from './store.js'
import type { BlockRecord, DevAccount, Flashblock, TxLocation, UserTxRecord } from '../domain/types.js'
import type { Persistence } from './persist/persistence.js'
import { type ChainLogger, SwitchableLogger } from './logger.js'
import type { ForkMode } from './fork/fork-mode.js'
import { ForkRootReader } from './fork/fork-state.js'
import type { ForkTarget } from './fork/upstream-fork.js'
import type { Preimages } from './persist/preimages.js'
import { allowanceRequest, decodeAllowance, type GaslessAllowance, NO_ALLOWANCE } from '../opstack/gasless.js'
import { writeStateFile } from './persist/state-dump.js'
import type { Pruner } from './persist/prune.js'
import { EmbeddedDevNode } from './dev/dev-node.js'
import { NextBlock } from './dev/next-block.js'
import { RootAliases } from './dev/root-aliases.js'
import { READ_VIEWS_KEPT } from '../limits.js'

/** The settings the chain and its sequencer run by (createChain derives them from ChainOptions). */
export type ChainSettings = Required<Pick<ChainOptions, 'blockTimeMs' | 'flashblockIntervalMs'>> &
  Pick<ChainOptions, 'opFees' | 'l1Settings' | 'dumpState' | 'evmTimeoutMs'> &
  Pick<SequencerOptions, 'extraData' | 'gaslessBudget' | 'liveStateCachedEntries'> & {
    opStack: boolean
    preimages: Preimages
    pruner?: Pruner
    /** Fork mode: the upstream answering for the fork block and below (src/chain/fork/). */
    fork?: ForkMode
  }

/** What the chain is built from (createChain, src/chain/create-chain.ts, makes each). */
export interface ChainParts {
  common: Common
  vm: VM
  accounts: readonly DevAccount[]
  pool: TxPool
  store: CanonicalStore
  vms: VmPool
  options: ChainSettings
  events: TypedEmitter<ChainEvents>
  logger: ChainLogger
  /** --data-dir's journal and block files; absent for a chain in memory. */
  persistence?: Persistence
}

export class Chain implements Backend, TxSubmitter {
  readonly common: Common
  readonly vm: VM
  readonly accounts: readonly DevAccount[]
  readonly pool: TxPool
  readonly store: CanonicalStore
  readonly options: ChainSettings
  readonly persistence?: Persistence
  private readonly readViews = new Map<string, RootReader>()
  private lastRoot: { bytes: Uint8Array; key: string; view?: RootReader; checked?: number } = {
    bytes: new Uint8Array(0),
    key: '',
  }
  private readonly stateCache: StateCache
  /** Flat state of the newest roots (follow-snapshot.ts); none in fork mode or over a store read by promise. */
  readonly snapshot?: StateSnapshot
  readonly events: TypedEmitter<ChainEvents>
  readonly pending: PendingStore
  readonly sequencer: Sequencer
  /** BLOCKHASH source for any EVM built on this chain's state (pass as `blockchain`). */
  readonly blockchain: StoreBlockHashes
  private readonly resolvers: Record<Endpoint, BlockReader>
  readonly submitter: TxSubmitter = this
  readonly executor: Executor
  /** The executor on the chain's own EVM (under the fork's, in fork mode): the dev node drops its answers. */
  readonly localExecutor: EmbeddedExecutor
  readonly devAccounts: EmbeddedDevAccounts
  /** The dev node's (src/chain/dev/): edited roots, the next block's clock and settings. */
  readonly roots = new RootAliases()
  readonly nextBlock = new NextBlock()
  readonly logger: SwitchableLogger
  readonly devNode: EmbeddedDevNode
  private readonly sealing: SealingReadiness

  constructor(parts: ChainParts) {
    const { common, vm, pool, store, vms, events, logger, options } = parts
    this.common = common
    this.vm = vm
    this.accounts = parts.accounts
    this.pool = pool
    this.store = store
    this.options = options
    this.persistence = parts.persistence
    this.events = events
    const log = (this.logger = new SwitchableLogger(logger))
    this.stateCache = new StateCache(nodeStore(vm))
    this.blockchain = vm.blockchain as StoreBlockHashes
    this.pending = new PendingStore({ canonicalHeight: () => store.height, warn: logger.warn })
    this.sequencer = new Sequencer(
      vm,
      pool,
      store,
      {
        onFlashblock: (fb) => {
          this.pending.apply(fb)
          events.emit('flashblock', fb)
        },
        onSealed: (block) => {
          store.add(block)
          this.pending.onCanonical(block)
          events.emit('block', block)
        },
        journal: parts.persistence,
      },
      {
        ...options,
        // OP Stack's sequencer fee vault: where priority fees go
        coinbase: SEQUENCER_FEE_VAULT,
        log: (m) => log.info(m),
        warn: (m) => log.warn(m),
        nextBlock: (parent) => this.nextBlock.take(parent),
      },
    )
    const { fork } = options
    const rootOf = (root: Uint8Array) => this.roots.resolve(root)
    const local = new EmbeddedExecutor(vm, vms, (root) => this.readerAt(root), rootOf, options.evmTimeoutMs)
    this.localExecutor = local
    this.executor = fork ? fork.executor(local, () => store.genesis()) : local
    this.devAccounts = new EmbeddedDevAccounts(common, parts.accounts)
    const sources = {
      store,
      pending: this.pending,
      pool,
      stateAt: (root: Uint8Array) => merkleStateView(this.readerAt(root)),
      oldestState: () => this.options.pruner?.oldestKept(store.height) ?? 0n,
    }
    const reader = (endpoint: Endpoint) => {
      const resolver = new BlockResolver(endpoint, sources)
      return fork ? fork.reader(resolver) : resolver
    }
    this.resolvers = { general: reader('general'), flashblocks: reader('flashblocks') }
    this.devNode = new EmbeddedDevNode(this)
    // a forked chain's state is mostly upstream's: no snapshot of it
    this.snapshot = fork
      ? undefined
      : followingSnapshot(this.stateCache.trie, events, rootOf, store.latest().header.stateRoot)
    this.sealing = new SealingReadiness(events, options.blockTimeMs, () => store.height)
  }

  get chainId(): bigint {
    return this.common.chainId()
  }

  on<K extends keyof ChainEvents>(event: K, listener: (...args: ChainEvents[K]) => void): () => void {
    return this.events.on(event, listener)
  }

  resolverFor(endpoint: Endpoint): BlockReader {
    return this.resolvers[endpoint]
  }

  /**
   * A read-only state view at any committed root (a block's or a flashblock's), shared by the reads of
   * that root so its caches serve the next request too. Never write through it.
   */
  stateAt(root: Uint8Array): MerkleStateManager {
    return this.readerAt(root).state
  }

  /** The reads of a committed root through the cross-root state cache (state-cache.ts): what RPC reads use. */
  readerAt(root: Uint8Array): RootReader {
    root = this.roots.resolve(root)
    const { pruner } = this.options
    const same = equalsBytes(root, this.lastRoot.bytes)
    // a root checked since the pruner last let nodes go is there still (the check hexes the root for a lookup)
    if (pruner && !(same && this.lastRoot.checked === pruner.removals)) pruner.check(root)
    // reads come in runs on one root: its hex key (dearer than a compare) and its view, readViews' newest, are kept
    if (!same) this.lastRoot = { bytes: root.slice(), key: bytesToHex(root) }
    this.lastRoot.checked = pruner?.removals
    if (same && this.lastRoot.view) return this.lastRoot.view
    const key = this.lastRoot.key
    let view = this.readViews.get(key)
    if (view)
      this.readViews.delete(key) // re-inserted below: most recently used last
    else {
      const Reader = this.options.fork ? ForkRootReader : RootReader
      const flat = this.snapshot && new SnapshotReads(this.snapshot, this.lastRoot.bytes)
      view = new Reader(this.lastRoot.bytes, () => stateAt(this.vm, root), this.stateCache, flat)
    }
    this.readViews.set(key, view)
    if (this.readViews.size > READ_VIEWS_KEPT) this.readViews.delete(this.readViews.keys().next().value!)
    this.lastRoot.view = view
    return view
  }

  /**
   * anvil_reset's `forking: {jsonRpcUrl, blockNumber}` on a chain started with --fork-url: the chain starts
   * again on that node's state (src/chain/fork/fork-mode.ts); the open block and the pool go first.
   */
  async refork(target: Partial<ForkTarget>): Promise<BlockRecord> {
    if (!this.options.fork) throw new InvalidParamsError('forking needs a chain started with --fork-url')
    return this.options.fork.refork(this, target, () => this.forgetReadViews())
  }

  /** After a refork the same root reads another node's state: every kept view, the last root's too, goes. */
  private forgetReadViews(): void {
    this.readViews.clear()
    this.lastRoot = { bytes: new Uint8Array(0), key: '' }
  }

  status(): BackendStatus {
    return {
      head: this.store.height,
      embedded: { poolSize: this.pool.size, cadence: this.sequencer.stats.summary() },
    }
  }

  readiness(): Readiness {
    return this.sealing.now()
  }

  /** Starts the flashblock/block timers. */
  start(): void {
    this.sealing.started()
    this.sequencer.start()
  }

  /** Stops the timers; writes --dump-state; closes the data directory (the block in progress stays journaled). */
  async stop(): Promise<void> {
    await this.sequencer.stop()
    this.snapshot?.close()
    const { dumpState: file, preimages, pruner } = this.options
    try {
      const head = this.store.latest()
      if (file) await writeStateFile(file, this.vm, head, preimages, this.roots.resolve(head.header.stateRoot))
    } finally {
      await pruner?.idle()
      await this.persistence?.close()
    }
  }

  /** eth_sendRawTransaction: admission; resolves to the hash or throws TransactionRejectedError. */
  async sendRawTransaction(raw: Uint8Array, options: SendOptions = {}): Promise<Uint8Array> {
    // a client's bytes only: the pool journal's come back through pool.add as they were accepted
    refuseNonCanonicalIntegers(raw)
    const hash = await this.pool.add(raw, options)
    // journaled before the hash is answered: an accepted hash survives a crash
    await this.persistence?.accepted(hash, raw)
    return hash
  }

  async poolContent(): Promise<PoolContent> {
    return this.pool.content()
  }

  /**
   * Resolves with the transaction's location as soon as it is preconfirmed (or canonical with
   * `preconfirmed: false`); undefined on timeout or when the pool drops it. Subscribes before it
   * returns, so a flashblock published right after the send is not missed.
   */
  waitForReceipt(
    hash: Uint8Array,
    timeoutMs: number,
    options: { preconfirmed?: boolean } = {},
  ): Promise<TxLocation | undefined> {
    const preconfirmed = options.preconfirmed ?? true
    const find = () => this.store.tx(hash) ?? (preconfirmed ? this.pending.tx(hash) : undefined)
    return waitForLocation(this.events, hash, find, timeoutMs)
  }

  /** Builds the next flashblock now (tests; the timers keep running if started). */
  buildNow(): Promise<Flashblock> {
    return this.sequencer.buildNow()
  }

  /** What the gasless whitelist says of a zero-priced transaction at the newest flashblock's state (the pool's gate). */
  async gaslessAllowance(record: UserTxRecord): Promise<GaslessAllowance> {
    const request = allowanceRequest(this.common.chainId(), record.tx)
    if (!request) return NO_ALLOWANCE
    const block = await this.resolvers.flashblocks.pendingBlock()
    try {
      return decodeAllowance(await this.executor.call(block, request))
    } catch {
      // a whitelist that reverts or is missing answers "no", as the builder's system call does
      return NO_ALLOWANCE
    }
  }

  /** Seals the block in progress now (an empty one if none is open). */
  sealNow(): Promise<BlockRecord> {
    return this.sequencer.sealNow()
  }

  /** One flashblock with everything ready, then sealed: the ready transactions land in a canonical block. */
  async mine(): Promise<BlockRecord> {
    await this.buildNow()
    return this.sealNow()
  }
}
