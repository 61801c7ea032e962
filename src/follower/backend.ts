/**
 * The follower backend: the same capabilities as the embedded chain (src/capabilities/), served from an
 * upstream node and its flashblocks feed. Canonical blocks come from the HeadFollower into a BlockCache;
 * pending comes from re-executing the feed's flashblocks (PendingFeed), and a frame's metadata receipts are
 * served until its re-execution is published (EarlyReceipts); reads go through a BlockResolver
 * over both (FollowerReader), calls run on upstream-backed state (FollowerExecutor), sends are forwarded
 * to the sequencer (FollowerSubmitter). It publishes the same `flashblock` and `block` events as the
 * embedded chain, so subscriptions, filters and the relay at /ws/flashblocks are wired the same way.
 */
import type { Common } from '@ethereumjs/common'
import type { Endpoint } from '../../generated/methods.js'
import type { Block, Receipt } from '../../generated/types.js'
import type { DevAccounts } from '../capabilities/accounts.js'
import type { Backend } from '../capabilities/backend.js'
import type { BackendStatus, Readiness } from '../capabilities/backend-status.js'
import { createChainCommon } from '../evm/chain-common.js'
import { type ChainEvents, TypedEmitter } from '../evm/events.js'
import type { BlockRecord, TxRecord } from '../domain/types.js'
import { FollowerStartError } from '../errors.js'
import { parseQuantity } from '../format/hex.js'
import { FLASHBLOCKS_IDLE_TIMEOUT_MS, FOLLOWER_CACHE_BLOCKS, SEND_SYNC_MAX_TIMEOUT_MS } from '../limits.js'
import type { ResolverSources } from '../pending/resolver.js'
import { PendingStore } from '../pending/store.js'
import { BlockCache } from './block-cache.js'
import { EarlyReceipts } from './early-receipts.js'
import { FeedClient } from './feed-client.js'
import { FollowerExecutor } from './follower-executor.js'
import { FollowerReader } from './follower-reader.js'
import { FollowerState } from './follower-state.js'
import { FollowerSubmitter } from './follower-submitter.js'
import { ForwardedTxs } from './forwarded.js'
import { blockFromUpstream } from './from-upstream.js'
import { HeadFollower } from './head-follower.js'
import { UpstreamHistory } from './history.js'
import { PendingFeed } from './pending-feed.js'
import { followerReadiness } from './readiness.js'
import { Reexecutor } from './reexecute.js'
import { UpstreamClient } from './upstream-client.js'
import type { UpstreamRpc } from './upstream-rpc.js'
import { wsUrlOf } from '../client/ws-url.js'

export interface FollowerOptions {
  /** HTTP JSON-RPC of the upstream node (`--upstream`). */
  upstream: string
  /** Raw flashblocks feed (`--upstream-feed`); without it pending = latest. */
  upstreamFeed?: string
  /** Where eth_sendRawTransaction goes (`--sequencer`, default the upstream). */
  sequencer?: string
  /** `--flashblocks-idle-timeout` (ms). */
  idleTimeoutMs?: number
  /** `--rpc.send-raw-transaction-sync-timeout` (ms): how long a forwarded hash is watched for its preconfirmation. */
  sendSyncTimeoutMs?: number
  /** `--follower-cache-blocks`. */
  cacheBlocks?: number
  /** `--upstream-timeout` (ms): the deadline of one request to the upstream or the sequencer. */
  upstreamTimeoutMs?: number
  /** `--rpc.evmtimeout` (ms, 0 = none): each eth_call's, estimate's and simulation's time budget. */
  evmTimeoutMs?: number
  /** newHeads over the upstream's WebSocket (default: its HTTP URL with a ws scheme); false polls only. */
  upstreamWs?: string | false
  warn?: (message: string) => void
}

/** A follower holds no keys: eth_accounts is empty and eth_sendTransaction has nobody to sign as. */
const NO_DEV_ACCOUNTS: DevAccounts = {
  all: [],
  signTransaction: () => {
    throw new Error('a follower holds no dev accounts')
  },
}

export class FollowerBackend implements Backend {
  readonly events: TypedEmitter<ChainEvents>
  readonly pending: PendingStore
  readonly submitter: FollowerSubmitter
  readonly executor: FollowerExecutor
  readonly devAccounts = NO_DEV_ACCOUNTS
  readonly forwarded = new ForwardedTxs()
  readonly pendingFeed?: PendingFeed
  readonly feed?: FeedClient
  readonly reexecutor: Reexecutor
  readonly early: EarlyReceipts
  private readonly readers: Record<Endpoint, FollowerReader>
  private readonly offUpdates: () => void

  private constructor(
    readonly upstream: UpstreamClient,
    readonly common: Common,
    readonly cache: BlockCache,
    readonly head: HeadFollower,
    genesis: BlockRecord,
    options: FollowerOptions,
  ) {
    const warn = options.warn ?? (() => {})
    this.events = new TypedEmitter<ChainEvents>((event, err) =>
      warn(`a ${event} listener failed: ${(err as Error).stack ?? err}`),
    )
    this.pending = new PendingStore({ canonicalHeight: () => cache.height ?? -1n, warn })
    const known = (hash: Uint8Array) => this.forwarded.get(hash)
    this.early = new EarlyReceipts({ common, canonicalHeight: () => cache.height ?? -1n, known })
    // re-executed first (it wins over the feed), then a receipt the feed brought ahead of re-execution
    const pendingTx = (hash: Uint8Array) => this.pending.tx(hash) ?? this.early.tx(hash)
    const state = new FollowerState(upstream, common, cache)
    this.reexecutor = new Reexecutor({
      common,
      upstream,
      blockHashes: state.blockHashes,
      snapshotFor: (n) => state.snapshotFor(n),
      warn,
      known,
    })
    const sequencer: UpstreamRpc = options.sequencer
      ? new UpstreamClient(options.sequencer, { timeoutMs: options.upstreamTimeoutMs })
      : upstream
    this.submitter = new FollowerSubmitter({
      sequencer,
      common,
      cache,
      pending: { tx: pendingTx },
      events: this.events,
      forwarded: this.forwarded,
      watchMs: 2 * (options.sendSyncTimeoutMs ?? SEND_SYNC_MAX_TIMEOUT_MS),
    })
    this.executor = new FollowerExecutor({
      upstream,
      common,
      state,
      pendingBlock: () => this.pending.current()?.block,
      timeoutMs: options.evmTimeoutMs,
    })
    const sources: ResolverSources = {
      store: {
        get height() {
          return cache.height ?? 0n
        },
        latest: () => cache.latest() ?? genesis,
        genesis: () => genesis,
        byNumber: (n) => cache.byNumber(n) ?? (n === 0n ? genesis : undefined),
        blockByHash: (hash) => cache.blockByHash(hash),
        tx: (hash) => cache.tx(hash),
      },
      pending: {
        current: () => this.pending.current(),
        tx: (hash) => this.pending.tx(hash) ?? this.early.serve(hash),
      },
      pool: this.forwarded,
      stateAt: (root) => state.viewOfRoot(root),
    }
    const history = new UpstreamHistory(upstream, common)
    const parts = { sources, cache, history, state }
    this.readers = {
      general: new FollowerReader('general', parts),
      flashblocks: new FollowerReader('flashblocks', parts),
    }
    if (options.upstreamFeed) {
      this.feed = new FeedClient({
        url: options.upstreamFeed,
        idleTimeoutMs: options.idleTimeoutMs ?? FLASHBLOCKS_IDLE_TIMEOUT_MS,
        warn,
      })
      this.pendingFeed = new PendingFeed({
        feed: this.feed,
        reexecutor: this.reexecutor,
        pending: this.pending,
        early: this.early,
        cache,
        head,
        state,
        events: this.events,
        warn,
      })
    }
    this.offUpdates = head.onUpdate((update) => {
      for (const block of update.added) this.forwarded.settle(block.txs.map((t) => t.hash))
      if (update.removed.length > 0) this.events.emit('removedBlocks', update.removed)
      if (this.pendingFeed) this.pendingFeed.onCanonical(update)
      else for (const block of update.added) this.events.emit('block', block)
    })
  }

  /**
   * Asks the upstream for its chain id, genesis and head; fails with FollowerStartError naming the
   * upstream when it does not answer. Nothing is followed until start().
   */
  static async connect(options: FollowerOptions): Promise<FollowerBackend> {
    const upstream = new UpstreamClient(options.upstream, { timeoutMs: options.upstreamTimeoutMs })
    let chainId: bigint
    let genesis: BlockRecord
    let common: Common
    try {
      chainId = parseQuantity(await upstream.call<string>('eth_chainId', []))
      const latest = await upstream.call<Block>('eth_getBlockByNumber', ['latest', false])
      common = createChainCommon({
        chainId: Number(chainId),
        gasLimit: parseQuantity(latest.gasLimit),
        baseFee: latest.baseFeePerGas ? parseQuantity(latest.baseFeePerGas) : 0n,
      })
      const [json, receipts] = await upstream.batch([
        { method: 'eth_getBlockByNumber', params: ['0x0', true] },
        { method: 'eth_getBlockReceipts', params: ['0x0'] },
      ])
      genesis = blockFromUpstream(json as Block, (receipts ?? []) as Receipt[], common)
    } catch (err) {
      throw new FollowerStartError(`cannot follow --upstream ${options.upstream}: ${(err as Error).message}`)
    }
    const cache = new BlockCache(options.cacheBlocks ?? FOLLOWER_CACHE_BLOCKS)
    let backend: FollowerBackend | undefined
    const head = new HeadFollower({
      rpc: upstream,
      common,
      cache,
      wsUrl: options.upstreamWs ?? wsUrlOf(options.upstream),
      upstreamTimeoutMs: options.upstreamTimeoutMs,
      // a canonical block's transactions were mostly re-executed (or forwarded) here already
      known: (hash) => backend?.knownTx(hash),
    })
    backend = new FollowerBackend(upstream, common, cache, head, genesis, options)
    return backend
  }

  /** A transaction decoded here already: forwarded, or in a re-executed flashblock. */
  knownTx(hash: Uint8Array): TxRecord | undefined {
    return this.forwarded.get(hash) ?? this.pending.tx(hash)?.tx
  }

  get chainId(): bigint {
    return this.common.chainId()
  }

  resolverFor(endpoint: Endpoint): FollowerReader {
    return this.readers[endpoint]
  }

  /** Caches the upstream's head (FollowerStartError if it cannot), then follows it and the feed. */
  async start(): Promise<void> {
    try {
      await this.head.start()
    } catch (err) {
      throw new FollowerStartError(`cannot follow --upstream ${this.upstream.url}: ${(err as Error).message}`)
    }
    this.feed?.start()
  }

  async stop(): Promise<void> {
    this.offUpdates()
    this.feed?.stop()
    this.submitter.close()
    await this.head.stop()
  }

  status(): BackendStatus {
    return {
      head: this.cache.height,
      follower: {
        upstream: this.head.health(),
        cacheBlocks: this.cache.size,
        forwarded: this.forwarded.size,
        feed: this.feed && { connected: this.feed.connected, idle: this.feed.isIdle, ...this.feed.stats },
        pending: this.pendingFeed?.stats,
        reexecution: this.reexecutor.stats,
        earlyReceipts: this.early.stats,
      },
    }
  }

  readiness(): Readiness {
    return followerReadiness(this.head, this.cache, this.feed)
  }
}
