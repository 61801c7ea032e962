/**
 * What a backend reports of itself (Backend.status(), Backend.readiness()): the figures GET /metrics and
 * /metrics.json show and the verdict GET /ready answers, so metrics/ and server/ read them without knowing
 * which backend runs. The counters' types live here, the parts that keep them (the sequencer's cadence, the
 * follower's head, feed, pending feed, re-execution and early receipts) fill them.
 */

/** GET /ready's answer: 503 with the reason while this process would serve stale answers. */
export type Readiness =
  | { ready: true; head: number; lagBlocks: number }
  | { ready: false; reason: string; head?: number; lagBlocks?: number }

export interface BackendStatus {
  /** The newest sealed block's number; undefined while a follower has no upstream head yet. */
  head: bigint | undefined
  /** The embedded chain's pool and sequencer; absent on a follower. */
  embedded?: { poolSize: number; cadence: CadenceSummary }
  /** The follower's upstream, feed and re-execution; absent on the embedded chain. */
  follower?: FollowerStatus
}

export interface FollowerStatus {
  upstream: FollowerHealth
  /** Blocks held in the follower's cache. */
  cacheBlocks: number
  /** Transactions forwarded to the sequencer, not yet seen mined. */
  forwarded: number
  /** The upstream flashblocks feed (--upstream-feed); absent without one. */
  feed?: FeedClientStats & { connected: boolean; idle: boolean }
  pending?: PendingFeedStats
  reexecution: ReexecutionStats
  earlyReceipts: EarlyReceiptsStats
}

/** The embedded sequencer's cadence (chain/cadence-stats.ts). */
export interface CadenceSummary {
  ticks: number
  flashblocks: number
  /** Flashblocks published more than one interval after they were due. */
  late: number
  tickJitterMs: Percentiles
  buildMs: Percentiles
}

export type Percentiles = { p50: number; p90: number; p99: number; max: number }

/** The head follower's view of its upstream (follower/head-follower.ts). */
export interface FollowerHealth {
  /** The last request to the upstream succeeded. */
  readonly reachable: boolean
  /** A newHeads subscription is live. */
  readonly subscribed: boolean
  readonly head?: bigint
  /** When the cached head last changed (ms since the epoch). */
  readonly lastHeadAt?: number
  /** When the upstream last answered (ms since the epoch). */
  readonly lastContactAt?: number
  /** Wall clock minus the head block's timestamp (ms). */
  readonly lagMs?: number
  /** Why the last sync failed, if it did. */
  readonly lastError?: string
}

/** Counted by follower/feed-client.ts. */
export interface FeedClientStats {
  /** Connections opened (the first included). */
  connects: number
  /** Reconnect attempts scheduled after a connection failed, closed or missed a pong. */
  reconnects: number
  /** Of those, because a pong was missing. */
  pongTimeouts: number
  messages: number
  decodeErrors: number
  /** Flashblocks that broke the sequence (a gap, a skipped index, a join in mid-block). */
  sequenceBreaks: number
  duplicates: number
  /** Times the feed went idle. */
  idles: number
  /**
   * Flashblocks carrying a Lagoon post-execution (0x7d) transaction (`diff.post_exec_tx`): this EVM does not
   * run the type, so pending state lacks the refunds it makes until the canonical block.
   */
  postExecTxs: number
}

/** Counted by follower/pending-feed.ts. */
export interface PendingFeedStats {
  /** Flashblocks re-executed and applied to pending. */
  applied: number
  /** Blocks the re-executor dropped (gap, mid-block join, a transaction that did not run). */
  dropped: number
  /** Times pending was dropped because the feed went silent. */
  idleDrops: number
  /** Canonical blocks whose transactions equal the flashblocks' (pending for N confirmed). */
  matched: number
  /** Canonical blocks whose transactions differ from their flashblocks', and upstream reorgs under pending. */
  reorgs: number
  /** Times later pending blocks were rebuilt from their flashblocks on a new canonical parent. */
  rebuilds: number
  /** Times the pending span ran deeper than FOLLOWER_PENDING_MAX_AHEAD_BLOCKS above the head and was reset. */
  depthResets: number
  /** Payloads for a block too far ahead of the upstream's head. */
  tooFarAhead: number
}

/** Counted by follower/reexecute.ts. */
export interface ReexecutionStats {
  flashblocks: number
  transactions: number
  /** Feed metadata receipts that re-execution contradicted. */
  receiptMismatches: number
  /** Flashblocks whose re-executed header hash differs from the feed's block_hash. */
  hashMismatches: number
  /** Blocks dropped because re-execution failed (a transaction the sequencer included did not run here). */
  failures: number
}

/** Counted by follower/early-receipts.ts. */
export interface EarlyReceiptsStats {
  /** Receipts taken from feed frames ahead of re-execution. */
  received: number
  /** Lookups (eth_getTransactionReceipt, eth_getTransactionByHash...) answered from them. */
  served: number
  /** Provisional receipts withdrawn because their block was dropped before re-execution published them. */
  withdrawn: number
}
