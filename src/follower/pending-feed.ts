/**
 * The follower's pending half, wired: each feed payload is re-executed on the upstream's state and the
 * resulting Flashblock goes to the pending store, then to the follower's `flashblock` event (subscriptions,
 * the relay at /ws/flashblocks, sendRawTransactionSync). A silent feed (idle timeout) drops pending:
 * `pending` = latest until frames flow again. Canonical blocks reconcile as base/base's processor does:
 * pending for N goes when the upstream's N arrives (same ordered transactions: a match; otherwise counted
 * as a reorg), and pending built on a parent the upstream did not keep is dropped.
 */
import { equalsBytes } from '@ethereumjs/util'
import type { ChainEvents, TypedEmitter } from '../chain/events.js'
import { keyOf } from '../domain/block-record.js'
import type { BlockRecord, FlashblockPayload } from '../domain/types.js'
import { FOLLOWER_PARENT_WAIT_MS, FOLLOWER_PENDING_MAX_AHEAD_BLOCKS } from '../limits.js'
import type { PendingStore } from '../pending/store.js'
import type { BlockCache } from './block-cache.js'
import type { FeedClient } from './feed-client.js'
import type { FollowerState } from './follower-state.js'
import type { CanonicalUpdate, HeadFollower } from './head-follower.js'
import type { Reexecutor } from './reexecute.js'

export interface PendingFeedStats {
  /** Flashblocks re-executed and applied to pending. */
  applied: number
  /** Blocks the re-executor dropped (gap, mid-block join, a transaction that did not run). */
  dropped: number
  /** Times pending was dropped because the feed went silent. */
  idleDrops: number
  /** Canonical blocks whose transactions equal the flashblocks' (pending for N confirmed). */
  matched: number
  /** Canonical blocks that differ from their flashblocks, or that replaced pending's parent. */
  reorgs: number
  /** Payloads for a block too far ahead of the upstream's head. */
  tooFarAhead: number
}

export interface PendingFeedParts {
  feed: FeedClient
  reexecutor: Reexecutor
  pending: PendingStore
  cache: BlockCache
  head: HeadFollower
  state: FollowerState
  events: TypedEmitter<ChainEvents>
  warn: (message: string) => void
}

export class PendingFeed {
  readonly stats: PendingFeedStats = { applied: 0, dropped: 0, idleDrops: 0, matched: 0, reorgs: 0, tooFarAhead: 0 }

  /** Payloads are handled one at a time, in arrival order (a wait for the parent must not reorder them). */
  private queue: Promise<void> = Promise.resolve()
  private readonly heightWaiters = new Set<() => void>()

  constructor(private readonly parts: PendingFeedParts) {
    parts.feed.on('payload', (payload) => {
      this.queue = this.queue.then(() => this.onPayload(payload)).catch((err) => parts.warn(String(err)))
    })
    parts.feed.on('idle', () => {
      this.stats.idleDrops++
      this.drop()
    })
  }

  /** The head follower's update: reconcile pending, then tell listeners about the new canonical blocks. */
  onCanonical(update: CanonicalUpdate): void {
    const { pending, events } = this.parts
    for (const wake of this.heightWaiters) wake()
    if (update.removed.length > 0 && pending.current()) {
      this.stats.reorgs++
      this.parts.warn(`upstream reorg of ${update.removed.length} block(s): pending dropped`)
      this.drop()
    }
    for (const block of update.added) {
      this.reconcile(block)
      pending.onCanonical(block)
      events.emit('block', block)
    }
  }

  private reconcile(block: BlockRecord): void {
    const current = this.parts.pending.current()?.block
    if (!current) return
    if (current.number === block.number) {
      if (sameTransactions(current, block)) this.stats.matched++
      else {
        this.stats.reorgs++
        this.parts.warn(`canonical block ${block.number} differs from its flashblocks: pending for it dropped`)
        this.parts.reexecutor.drop()
      }
    } else if (current.number === block.number + 1n && !equalsBytes(current.header.parentHash, block.hash)) {
      this.stats.reorgs++
      this.parts.warn(`canonical block ${block.number} is not the parent pending was built on: pending dropped`)
      this.drop()
    }
  }

  private async onPayload(payload: FlashblockPayload): Promise<void> {
    const { reexecutor, pending, cache, state, events } = this.parts
    // the feed is often faster than the upstream's head: a new block's parent may not be canonical here yet;
    // a parent whose last flashblock was re-executed here is known already (a reorg of it drops pending later)
    const { base } = payload
    if (base && base.blockNumber - 1n > (cache.height ?? -1n) && !reexecutor.continues(base.parentHash))
      await this.waitForHeight(base.blockNumber - 1n)
    const height = cache.height ?? -1n
    if (payload.metadata.blockNumber - height > BigInt(FOLLOWER_PENDING_MAX_AHEAD_BLOCKS)) {
      this.stats.tooFarAhead++
      return
    }
    const result = await reexecutor.apply(payload, height)
    if (result.kind === 'dropped') {
      this.stats.dropped++
      pending.clear()
      return
    }
    if (result.kind !== 'applied') return
    state.addPending(result.flashblock.diff.stateRoot, result.state)
    if (!pending.apply(result.flashblock)) return
    this.stats.applied++
    events.emit('flashblock', result.flashblock)
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

  private drop(): void {
    this.parts.reexecutor.drop()
    this.parts.pending.clear()
    this.parts.state.clearPending()
  }
}

function sameTransactions(a: BlockRecord, b: BlockRecord): boolean {
  return a.txs.length === b.txs.length && a.txs.every((t, i) => keyOf(t.hash) === keyOf(b.txs[i].hash))
}
