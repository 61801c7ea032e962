/**
 * Follows the upstream's canonical head into a BlockCache and tells listeners, in order, which blocks
 * became canonical and which stopped being so. A `newHeads` subscription (the upstream's HTTP URL with a
 * ws scheme, where anvil, geth and reth serve WebSockets too) wakes it at once; without one it polls
 * every UPSTREAM_POLL_INTERVAL_MS. Each wake compares the upstream's `latest` (number and hash, so a
 * same-height reorg is seen too) with the cached head, fetches the missing blocks in batches (block and
 * receipts in one request), and walks back by parent hash when a block does not extend the cache.
 * An unreachable upstream never stops the loop: it is reported in health() and retried every tick.
 */
import type { FollowerHealth } from '../capabilities/backend-status.js'
import type { Common } from '@ethereumjs/common'
import { equalsBytes } from '@ethereumjs/util'
import type { Block, Receipt } from '../../generated/types.js'
import type { BlockRecord } from '../domain/types.js'
import type { KnownTxs } from './feed-txs.js'
import { UpstreamUnavailableError } from '../errors.js'
import { data, parseData, parseQuantity, quantity } from '../format/hex.js'
import {
  UPSTREAM_FETCH_BATCH_BLOCKS,
  UPSTREAM_POLL_INTERVAL_MS,
  UPSTREAM_SUBSCRIBED_POLL_INTERVAL_MS,
} from '../limits.js'
import type { BlockCache } from './block-cache.js'
import { blockFromUpstream } from './from-upstream.js'
import { NewHeadsSocket } from './new-heads-socket.js'
import type { UpstreamCall, UpstreamRpc } from './upstream-rpc.js'

/** One change of the canonical chain. */
export interface CanonicalUpdate {
  /** Blocks that stopped being canonical (a reorg), ascending: their logs are now `removed`. */
  readonly removed: readonly BlockRecord[]
  /** Blocks that became canonical, ascending; after a reorg, the new branch from the fork point. */
  readonly added: readonly BlockRecord[]
}

export interface HeadFollowerOptions {
  rpc: UpstreamRpc
  /** The upstream chain's Common (chain id) for decoding its transactions. */
  common: Common
  cache: BlockCache
  /** Where to subscribe to newHeads; `false` polls only. */
  wsUrl?: string | false
  /** `--upstream-timeout` (ms): the deadline of the newHeads WebSocket's handshake. */
  upstreamTimeoutMs?: number
  pollIntervalMs?: number
  onError?: (err: unknown) => void
  /** Transactions decoded here already (re-executed, forwarded): not decoded again from a canonical block. */
  known?: KnownTxs
}

export class HeadFollower {
  private readonly listeners = new Set<(update: CanonicalUpdate) => void>()
  private readonly socket?: NewHeadsSocket
  private running = false
  private loop?: Promise<void>
  private wake?: () => void
  private kicked = false
  private state: { reachable: boolean; lastHeadAt?: number; lastContactAt?: number; lastError?: string } = {
    reachable: false,
  }

  constructor(private readonly options: HeadFollowerOptions) {
    if (options.wsUrl) this.socket = new NewHeadsSocket(options.wsUrl, () => this.kick(), options.upstreamTimeoutMs)
  }

  /** The cache this follower fills. */
  get cache(): BlockCache {
    return this.options.cache
  }

  /** Listens for canonical changes (the first is the head start() cached); returns the unsubscribe function. */
  onUpdate(listener: (update: CanonicalUpdate) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Caches the upstream's head (rejects with the UpstreamError if it cannot), then keeps following. */
  async start(): Promise<void> {
    await this.syncOnce()
    this.running = true
    this.socket?.open()
    this.loop = this.run()
  }

  async stop(): Promise<void> {
    this.running = false
    this.socket?.close()
    this.wake?.()
    await this.loop
  }

  health(): FollowerHealth {
    const head = this.options.cache.latest()
    return {
      ...this.state,
      subscribed: this.socket?.subscribed ?? false,
      head: head?.number,
      lagMs: head ? Date.now() - Number(head.header.timestamp) * 1000 : undefined,
    }
  }

  /** Compares with the upstream's head now rather than at the next tick (a flashblock names a parent not seen yet). */
  kick(): void {
    this.kicked = true
    this.wake?.()
  }

  private async run(): Promise<void> {
    while (this.running) {
      if (!this.kicked) {
        const interval =
          this.socket?.subscribed && this.state.reachable
            ? UPSTREAM_SUBSCRIBED_POLL_INTERVAL_MS
            : (this.options.pollIntervalMs ?? UPSTREAM_POLL_INTERVAL_MS)
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, interval)
          this.wake = () => {
            clearTimeout(timer)
            resolve()
          }
        })
        this.wake = undefined
      }
      this.kicked = false
      if (!this.running) break
      await this.syncOnce().catch(() => {})
    }
  }

  /** One comparison with the upstream's head; records the outcome in health(). */
  private async syncOnce(): Promise<void> {
    try {
      await this.sync()
      this.state = { ...this.state, reachable: true, lastError: undefined }
    } catch (err) {
      const unreachable = err instanceof UpstreamUnavailableError
      this.state = { ...this.state, reachable: !unreachable, lastError: (err as Error).message }
      // a socket on a dead or frozen upstream is as good as gone: reconnect it once the upstream is back
      if (unreachable) this.socket?.restart()
      this.options.onError?.(err)
      throw err
    }
  }

  private async sync(): Promise<void> {
    const { rpc, cache } = this.options
    const latest = await rpc.call<Block | null>('eth_getBlockByNumber', ['latest', false])
    this.state.lastContactAt = Date.now()
    if (!latest) throw new Error('upstream has no latest block')
    const target = parseQuantity(latest.number)
    const targetHash = parseData(latest.hash)
    const head = cache.latest()
    if (head && head.number === target && equalsBytes(head.hash, targetHash)) return
    if (!head || target <= head.number) {
      const known = cache.byNumber(target)
      // the upstream went back to a block we hold (evm_revert without mining): the blocks above it are gone
      if (known && equalsBytes(known.hash, targetHash)) return this.emit({ removed: cache.rewindTo(target), added: [] })
      return this.adopt((await this.fetch([targetHash]))[0])
    }
    let start = head.number + 1n
    if (target - head.number > BigInt(cache.depth)) {
      // back from a long outage: blocks older than the window would be evicted as soon as fetched, so only
      // the window is fetched (listeners miss the blocks in between, as a restarted node would)
      cache.clear()
      start = target - BigInt(cache.depth) + 1n
    }
    for (let from = start; from <= target; from += BigInt(UPSTREAM_FETCH_BATCH_BLOCKS)) {
      const to =
        from + BigInt(UPSTREAM_FETCH_BATCH_BLOCKS) - 1n < target
          ? from + BigInt(UPSTREAM_FETCH_BATCH_BLOCKS) - 1n
          : target
      const numbers: bigint[] = []
      for (let n = from; n <= to; n++) numbers.push(n)
      const added: BlockRecord[] = []
      for (const block of await this.fetch(numbers)) {
        const top = cache.latest()
        if (top && !equalsBytes(block.header.parentHash, top.hash)) {
          this.emit({ removed: [], added })
          await this.adopt(block)
          return this.sync()
        }
        cache.append(block)
        added.push(block)
      }
      this.emit({ removed: [], added })
    }
  }

  /** Makes `block` the head: walks its ancestors back to a cached block (or past the cache) and swaps the branch in. */
  private async adopt(block: BlockRecord): Promise<void> {
    const { cache } = this.options
    const branch = [block]
    for (;;) {
      const child = branch[0]
      const parent = cache.byNumber(child.number - 1n)
      if (parent && equalsBytes(parent.hash, child.header.parentHash)) break
      const oldest = cache.oldest()
      if (child.number === 0n || !oldest || child.number - 1n < oldest.number) break
      branch.unshift((await this.fetch([child.header.parentHash]))[0])
    }
    const forkParent = cache.byNumber(branch[0].number - 1n)
    const linked = forkParent !== undefined && equalsBytes(forkParent.hash, branch[0].header.parentHash)
    const removed = linked ? cache.rewindTo(forkParent.number) : cache.clear()
    for (const b of branch) cache.append(b)
    this.emit({ removed, added: branch })
  }

  /** Blocks by number or hash, each with its receipts, in one batch; verified by blockFromUpstream. */
  private async fetch(ids: readonly (bigint | Uint8Array)[]): Promise<BlockRecord[]> {
    const calls: UpstreamCall[] = []
    for (const id of ids) {
      const param = typeof id === 'bigint' ? quantity(id) : data(id)
      calls.push({
        method: typeof id === 'bigint' ? 'eth_getBlockByNumber' : 'eth_getBlockByHash',
        params: [param, true],
      })
      calls.push({ method: 'eth_getBlockReceipts', params: [param] })
    }
    const results = await this.options.rpc.batch(calls)
    this.state.lastContactAt = Date.now()
    return ids.map((id, i) => {
      const json = results[2 * i] as Block | null
      const name = typeof id === 'bigint' ? String(id) : data(id)
      if (!json) throw new Error(`upstream has no block ${name} (it moved while we read)`)
      return blockFromUpstream(json, results[2 * i + 1] as Receipt[], this.options.common, this.options.known)
    })
  }

  private emit(update: CanonicalUpdate): void {
    if (update.added.length === 0 && update.removed.length === 0) return
    if (update.added.length > 0) this.state.lastHeadAt = Date.now()
    for (const listener of this.listeners) {
      try {
        listener(update)
      } catch (err) {
        this.options.onError?.(err)
      }
    }
  }
}
