/**
 * The follower's pending half, wired: each feed payload is re-executed on the upstream's state and the
 * resulting Flashblock goes to the pending store, then to the follower's `flashblock` event (subscriptions,
 * the relay at /ws/flashblocks, sendRawTransactionSync). A silent feed (idle timeout) drops pending:
 * `pending` = latest until frames flow again. Canonical blocks reconcile as base/base's processor does:
 * pending for N goes when the upstream's N arrives (same ordered transactions: a match; otherwise a reorg,
 * whose preconfirmed logs that never became canonical go out `removed: true`); later blocks that no longer
 * sit on the canonical head are rebuilt from their flashblocks on its state, and a span deeper than
 * FOLLOWER_PENDING_MAX_AHEAD_BLOCKS is reset. Receipts a frame's metadata carries are served as it arrives
 * (EarlyReceipts), until its re-execution is published or its block dropped.
 */
import type { PendingFeedStats } from '../capabilities/backend-status.js'
import type { ChainEvents, TypedEmitter } from '../evm/events.js'
import type { BlockRecord, FlashblockPayload, LogRecord, TxRecord } from '../domain/types.js'
import { FOLLOWER_PARENT_WAIT_MS, FOLLOWER_PENDING_MAX_AHEAD_BLOCKS } from '../limits.js'
import type { PendingStore } from '../pending/store.js'
import type { BlockCache } from './block-cache.js'
import type { EarlyReceipts } from './early-receipts.js'
import type { FeedClient } from './feed-client.js'
import type { FollowerState } from './follower-state.js'
import type { CanonicalUpdate, HeadFollower } from './head-follower.js'
import { logsNotIn, PendingSpan, sameTransactions } from './pending-span.js'
import type { ReexecuteResult, Reexecutor } from './reexecute.js'

export interface PendingFeedParts {
  feed: FeedClient
  reexecutor: Reexecutor
  pending: PendingStore
  early: EarlyReceipts
  cache: BlockCache
  head: HeadFollower
  state: FollowerState
  events: TypedEmitter<ChainEvents>
  warn: (message: string) => void
}

export class PendingFeed {
  readonly stats: PendingFeedStats = {
    applied: 0,
    dropped: 0,
    idleDrops: 0,
    matched: 0,
    reorgs: 0,
    rebuilds: 0,
    depthResets: 0,
    tooFarAhead: 0,
  }

  /** Payloads are handled one at a time, in arrival order (a wait for the parent must not reorder them). */
  private queue: Promise<void> = Promise.resolve()
  private readonly span = new PendingSpan()
  /** Set by a canonical block under the span; the rebuild runs in the payload queue, in order. */
  private rebuildWanted = false
  private readonly heightWaiters = new Set<() => void>()

  constructor(private readonly parts: PendingFeedParts) {
    parts.feed.on('payload', (payload) => {
      const txs = this.takeReceipts(payload)
      this.queue = this.queue.then(() => this.onPayload(payload, txs)).catch((err) => parts.warn(String(err)))
    })
    parts.feed.on('idle', () => {
      this.stats.idleDrops++
      this.drop(false)
    })
  }

  /** The head follower's update: reconcile pending, then tell listeners about the new canonical blocks. */
  onCanonical(update: CanonicalUpdate): void {
    const { pending, early, events, cache, warn } = this.parts
    for (const wake of this.heightWaiters) wake()
    if (update.removed.length > 0) early.clear()
    if (update.removed.length > 0 && !this.span.empty) {
      this.stats.reorgs++
      warn(`upstream reorg of ${update.removed.length} block(s) under pending`)
    }
    for (const block of update.added) {
      const built = this.span.settle(block.number)
      if (built) this.reconcile(built, block)
      pending.onCanonical(block)
      early.settleCanonical(block.number)
      events.emit('block', block)
    }
    const head = cache.latest()
    if (!head) return
    if (this.span.depth(head.number) > BigInt(FOLLOWER_PENDING_MAX_AHEAD_BLOCKS)) {
      this.stats.depthResets++
      warn(`pending reaches ${this.span.depth(head.number)} blocks above the upstream head ${head.number}: reset`)
      this.removePending(this.span.above(head.number))
      this.drop(true)
    } else if (this.span.offParent(head)) {
      // reads see latest until the rebuild (queued behind the payloads already received) is done
      pending.clear()
      early.clear()
      this.rebuildWanted = true
      this.queue = this.queue.then(() => this.rebuild()).catch((err) => warn(String(err)))
    }
  }

  private reconcile(built: BlockRecord, block: BlockRecord): void {
    if (sameTransactions(built, block)) {
      this.stats.matched++
      return
    }
    this.stats.reorgs++
    this.parts.warn(`canonical block ${block.number} differs from its flashblocks: its pending transactions dropped`)
    this.removeLogs(logsNotIn(built, block))
  }

  /** Replays the held flashblocks above the head on its state, the lowest block re-parented onto it. */
  private async rebuild(): Promise<void> {
    if (!this.rebuildWanted) return
    this.rebuildWanted = false
    const { cache, reexecutor, pending, state, warn } = this.parts
    const head = cache.latest()
    if (!head || !this.span.offParent(head)) return
    const blocks = this.span.above(head.number)
    this.removePending(blocks)
    reexecutor.reset()
    pending.clear()
    state.clearPending()
    this.span.clear()
    this.stats.rebuilds++
    warn(`rebuilding ${blocks.length} pending block(s) from their flashblocks on canonical block ${head.number}`)
    for (const [i, block] of blocks.entries()) {
      for (const payload of block.payloads) {
        const replay =
          i === 0 && payload.base ? { ...payload, base: { ...payload.base, parentHash: head.hash } } : payload
        const result = await reexecutor.apply(replay, head.number, { rebuilt: true })
        if (!this.accept(replay, result)) return
      }
    }
  }

  /** Serves the frame's metadata receipts now; its decoded transactions, if they were decoded. */
  private takeReceipts(payload: FlashblockPayload): readonly TxRecord[] | undefined {
    const { early, events, warn } = this.parts
    try {
      const txs = early.onFrame(payload)
      const served = txs?.filter((t) => early.tx(t.hash))
      if (served?.length) events.emit('earlyReceipts', served)
      return txs
    } catch (err) {
      // re-execution still runs and has the last word; nothing half-taken stays served
      early.clear()
      warn(`receipts of flashblock ${payload.metadata.blockNumber}#${payload.index} not served early: ${err}`)
      return undefined
    }
  }

  /** `txs`: the payload's transactions if EarlyReceipts decoded them on arrival. */
  private async onPayload(payload: FlashblockPayload, txs: readonly TxRecord[] | undefined): Promise<void> {
    const { reexecutor, cache } = this.parts
    // the feed is often faster than the upstream's head: a new block's parent may not be canonical here yet;
    // a parent whose last flashblock was re-executed here is known already (a reorg of it drops pending later)
    const { base } = payload
    if (base && base.blockNumber - 1n > (cache.height ?? -1n) && !reexecutor.continues(base.parentHash))
      await this.waitForHeight(base.blockNumber - 1n)
    await this.rebuild()
    const height = cache.height ?? -1n
    if (payload.metadata.blockNumber - height > BigInt(FOLLOWER_PENDING_MAX_AHEAD_BLOCKS)) {
      this.stats.tooFarAhead++
      this.parts.early.forgetFrom(payload.metadata.blockNumber)
      return
    }
    const result = await reexecutor.apply(payload, height, { txs })
    if (result.kind === 'ignored' && txs) this.parts.early.settle(txs)
    this.accept(payload, result)
  }

  /** Hands a re-executed flashblock on (store, span, event); false when the block was dropped. */
  private accept(payload: FlashblockPayload, result: ReexecuteResult): boolean {
    const { pending, early, state, events } = this.parts
    if (result.kind === 'dropped') {
      this.stats.dropped++
      pending.clear()
      early.forgetFrom(payload.metadata.blockNumber)
      this.span.forgetFrom(payload.metadata.blockNumber)
      return false
    }
    if (result.kind !== 'applied') return true
    state.addPending(result.flashblock.diff.stateRoot, result.state)
    const applied = pending.apply(result.flashblock)
    // re-execution wins: from here the pending store answers for these transactions, or nobody does
    early.settle(result.flashblock.executed.txs)
    this.span.record(payload, applied ? pending.current()?.block : undefined)
    if (!applied) return true
    this.stats.applied++
    events.emit('flashblock', result.flashblock)
    return true
  }

  /** Logs preconfirmed to pendingLogs subscribers that will not become canonical: sent again `removed: true`. */
  private removeLogs(logs: readonly LogRecord[]): void {
    if (logs.length > 0) this.parts.events.emit('removedPendingLogs', logs)
  }

  private removePending(blocks: readonly { built?: BlockRecord }[]): void {
    this.removeLogs(blocks.flatMap((b) => b.built?.logs ?? []))
  }

  /** Until the cache's head reaches `number` or FOLLOWER_PARENT_WAIT_MS passes, whichever is first. */
  private waitForHeight(number: bigint): Promise<void> {
    const { cache, head } = this.parts
    head.kick()
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer)
        this.heightWaiters.delete(check)
        resolve()
      }
      const check = () => (cache.height ?? -1n) >= number && done()
      const timer = setTimeout(done, FOLLOWER_PARENT_WAIT_MS)
      this.heightWaiters.add(check)
    })
  }

  /** `forgetLast`: also forget the state the last block left (it may not be the next block's parent). */
  private drop(forgetLast: boolean): void {
    if (forgetLast) this.parts.reexecutor.reset()
    else this.parts.reexecutor.drop()
    this.parts.pending.clear()
    this.parts.early.clear()
    this.parts.state.clearPending()
    this.span.clear()
  }
}
