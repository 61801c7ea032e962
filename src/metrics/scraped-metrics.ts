/**
 * The metrics read from their owners at scrape time: heights, pool, subscriptions and feed clients, the
 * limiter's Redis health, the sequencer's cadence (embedded chain), and the follower's upstream and feed
 * figures (head lag, reconnects, dropped sequences). Counters mirror a monotonic count their owner keeps.
 */
import { Counter, Gauge, type Registry } from 'prom-client'
import type { Backend } from '../capabilities/backend.js'
import type { BackendStatus, CadenceSummary, FollowerStatus } from '../capabilities/backend-status.js'
import type { TypedEmitter, ChainEvents } from '../evm/events.js'
import { interpreterStats } from '../evm/interpreter/stats.js'
import type { PendingStore } from '../pending/store.js'
import type { RateLimiterMetrics } from '../server/rate-limit-window.js'

export interface MetricSources {
  /**
   * The backend (embedded or follower) through its capability: its status, and the events and pending store
   * the flashblock age and the pending gauges are read from.
   */
  backend: Pick<Backend, 'status'> & { readonly events: TypedEmitter<ChainEvents>; readonly pending: PendingStore }
  subscriptions: { count(): number }
  feed: { count(): number }
  /** The limiter's figures; its Redis families are shown only when `redis` (a shared limiter) is true. */
  rateLimit?: () => RateLimiterMetrics
  redis?: boolean
}

type Read = () => number | undefined

function gauge(registry: Registry, name: string, help: string, read: Read): void {
  new Gauge({
    name,
    help,
    registers: [registry],
    collect() {
      const value = read()
      // an unknown value is left out rather than shown as 0 (a head at 0 is a real answer)
      if (value === undefined) this.remove()
      else this.set(value)
    },
  })
}

function counter(registry: Registry, name: string, help: string, read: Read): void {
  new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      this.reset()
      this.inc(read() ?? 0)
    },
  })
}

export function registerSources(registry: Registry, sources: MetricSources): () => void {
  const { backend } = sources
  const status = () => backend.status()
  let lastFlashblockAt = Date.now()
  let flashblocks = 0
  const onFlashblock = () => {
    lastFlashblockAt = Date.now()
    flashblocks++
  }
  backend.events.on('flashblock', onFlashblock)

  gauge(registry, 'preconf_head_block_number', 'Number of the newest sealed (latest) block', () => num(status().head))
  gauge(registry, 'preconf_pending_block_number', 'Number of the block being preconfirmed (pending)', () =>
    num(backend.pending.current()?.block.number),
  )
  gauge(
    registry,
    'preconf_pending_flashblock_index',
    'Index of the newest flashblock of the pending block',
    () => backend.pending.current()?.index,
  )
  counter(registry, 'preconf_flashblocks_total', 'Flashblocks applied to pending', () => flashblocks)
  gauge(
    registry,
    'preconf_flashblock_age_seconds',
    'Seconds since the last flashblock (since start if none)',
    () => (Date.now() - lastFlashblockAt) / 1000,
  )
  gauge(registry, 'preconf_subscriptions', 'Live eth_subscribe subscriptions', () => sources.subscriptions.count())
  gauge(registry, 'preconf_feed_clients', 'Clients of the raw flashblocks feed (/ws/flashblocks)', () =>
    sources.feed.count(),
  )

  const limiter = sources.rateLimit
  if (limiter && sources.redis) {
    counter(
      registry,
      'preconf_redis_errors_total',
      'Failed Redis commands and connection attempts of the rate limiter',
      () => limiter().redisErrors,
    )
    counter(
      registry,
      'preconf_rate_limit_fail_open_total',
      'Requests served unlimited while Redis was unreachable',
      () => limiter().failOpenRequests,
    )
    gauge(registry, 'preconf_redis_up', '1 while the rate limiter reaches Redis', () => (limiter().redisUp ? 1 : 0))
  }
  registerInterpreter(registry)
  // which backend runs is fixed for the service's life, and so is whether a follower has a feed
  const { embedded, follower } = status()
  if (embedded) registerEmbedded(registry, () => status().embedded!)
  if (follower) registerFollower(registry, () => status().follower!, follower.feed !== undefined)
  return () => backend.events.off('flashblock', onFlashblock)
}

/**
 * The interpreter (src/evm/interpreter/): eth_calls it answered and handed back by reason; eth_simulateV1's
 * calls, the sequencer's transactions and deposits, a follower's re-executed ones (and the state reads those
 * waited for), and debug_trace*'s transactions whose outermost frame it ran and handed back by reason.
 */
function registerInterpreter(registry: Registry): void {
  counter(
    registry,
    'preconf_evm_interpreter_calls_total',
    'eth_calls the EVM interpreter answered',
    () => interpreterStats.answered,
  )
  reasonCounter(
    registry,
    'preconf_evm_interpreter_fallbacks_total',
    'eth_calls the EVM interpreter handed to the @ethereumjs path, by reason (an opcode or a case it does not run)',
    interpreterStats.fallbacks,
  )
  counter(
    registry,
    'preconf_evm_interpreter_simulate_calls_total',
    'eth_simulateV1 calls whose outermost frame the EVM interpreter ran inside runTx',
    () => interpreterStats.simulated,
  )
  reasonCounter(
    registry,
    'preconf_evm_interpreter_simulate_fallbacks_total',
    'eth_simulateV1 calls whose outermost frame @ethereumjs ran, by reason (an opcode, or a call the interpreter does not take: a creation, a traced run, an access list)',
    interpreterStats.simulateFallbacks,
  )
  counter(
    registry,
    'preconf_evm_interpreter_block_calls_total',
    'Transactions and deposits of the sequencer’s blocks whose outermost frame the EVM interpreter ran',
    () => interpreterStats.built,
  )
  reasonCounter(
    registry,
    'preconf_evm_interpreter_block_fallbacks_total',
    'Transactions and deposits of the sequencer’s blocks whose outermost frame @ethereumjs ran, by reason (an opcode, a creation, an access list or authorization, a call with value)',
    interpreterStats.buildFallbacks,
  )
  counter(
    registry,
    'preconf_evm_interpreter_reexecution_calls_total',
    'Transactions and deposits a follower re-executed (its feed’s flashblocks) whose outermost frame the EVM interpreter ran',
    () => interpreterStats.reexecuted,
  )
  reasonCounter(
    registry,
    'preconf_evm_interpreter_reexecution_fallbacks_total',
    'Transactions and deposits a follower re-executed whose outermost frame @ethereumjs ran, by reason (an opcode, a creation, an access list or authorization, a call with value)',
    interpreterStats.reexecuteFallbacks,
  )
  counter(
    registry,
    'preconf_evm_interpreter_reexecution_awaited_reads_total',
    'State reads of re-executed frames on the EVM interpreter that the upstream-backed state had not loaded yet: the frame waited for the upstream',
    () => interpreterStats.reexecuteAwaitedReads,
  )
  counter(
    registry,
    'preconf_evm_interpreter_trace_calls_total',
    'debug_trace* transactions (replayed or traced) whose outermost frame the EVM interpreter ran inside runTx',
    () => interpreterStats.traced,
  )
  reasonCounter(
    registry,
    'preconf_evm_interpreter_trace_fallbacks_total',
    'debug_trace* transactions whose outermost frame @ethereumjs ran, by reason (an opcode, a creation, a struct logger, a traced frame that failed)',
    interpreterStats.traceFallbacks,
  )
}

/** A counter labelled by reason, read from `counts` at each scrape. */
function reasonCounter(registry: Registry, name: string, help: string, counts: Map<string, number>): void {
  new Counter({
    name,
    help,
    labelNames: ['reason'],
    registers: [registry],
    collect() {
      this.reset()
      for (const [reason, count] of counts) this.inc({ reason }, count)
    },
  })
}

function registerEmbedded(registry: Registry, status: () => NonNullable<BackendStatus['embedded']>): void {
  const cadence = (): CadenceSummary => status().cadence
  gauge(registry, 'preconf_pool_transactions', 'Transactions waiting in the pool', () => status().poolSize)
  counter(
    registry,
    'preconf_sequencer_late_flashblocks_total',
    'Flashblocks published more than one interval late',
    () => cadence().late,
  )
  new Gauge({
    name: 'preconf_sequencer_tick_jitter_seconds',
    help: 'How late the flashblock timer fired against its due time, over the last 10000 ticks',
    labelNames: ['quantile'],
    registers: [registry],
    collect() {
      const { p50, p90, p99 } = cadence().tickJitterMs
      this.set({ quantile: '0.5' }, p50 / 1000)
      this.set({ quantile: '0.9' }, p90 / 1000)
      this.set({ quantile: '0.99' }, p99 / 1000)
    },
  })
}

function registerFollower(registry: Registry, status: () => FollowerStatus, hasFeed: boolean): void {
  gauge(
    registry,
    'preconf_follower_head_lag_seconds',
    "Wall clock minus the timestamp of the follower's head block",
    () => {
      const lagMs = status().upstream.lagMs
      return lagMs === undefined ? undefined : lagMs / 1000
    },
  )
  gauge(
    registry,
    'preconf_follower_upstream_reachable',
    "1 while the upstream answered the follower's last request",
    () => (status().upstream.reachable ? 1 : 0),
  )
  gauge(
    registry,
    'preconf_follower_forwarded_transactions',
    'Transactions forwarded to the sequencer, not yet seen mined',
    () => status().forwarded,
  )
  if (!hasFeed) return
  const feed = () => status().feed!
  gauge(registry, 'preconf_follower_feed_connected', '1 while the upstream flashblocks feed is connected', () =>
    feed().connected ? 1 : 0,
  )
  counter(
    registry,
    'preconf_follower_feed_reconnects_total',
    'Reconnects of the upstream flashblocks feed',
    () => feed().reconnects,
  )
  counter(
    registry,
    'preconf_follower_feed_idles_total',
    'Times the upstream feed went silent past the idle timeout',
    () => feed().idles,
  )
  counter(
    registry,
    'preconf_follower_feed_malformed_frames_total',
    'Upstream feed frames dropped as undecodable (the connection stays up)',
    () => feed().decodeErrors,
  )
  counter(
    registry,
    'preconf_follower_feed_dropped_sequences_total',
    'Feed flashblocks that broke the sequence (gap, skipped index, mid-block join)',
    () => feed().sequenceBreaks,
  )
  counter(
    registry,
    'preconf_follower_pending_dropped_blocks_total',
    'Pending blocks dropped by re-execution (gap, mid-block join, a failed transaction)',
    () => status().pending?.dropped,
  )
  counter(
    registry,
    'preconf_follower_early_receipts_served_total',
    "Lookups answered from a feed frame's metadata receipt before re-execution published it",
    () => status().earlyReceipts.served,
  )
}

function num(value: bigint | undefined): number | undefined {
  return value === undefined ? undefined : Number(value)
}
