/**
 * Every limit the service enforces, in one catalogue. Each is a default: the ones operators tune have a
 * CLI flag (see src/config.ts), the rest are here so a reader finds them in one place.
 */

/** Largest raw transaction the pool admits (bytes); over it `oversized data`. geth's txMaxSize: 4 slots of 32 KiB. */
export const MAX_TX_BYTES = 4 * 32 * 1024

/** Most slots one eth_getStorageValues request reads, over all its accounts (geth's maxGetStorageSlots). */
export const MAX_STORAGE_VALUES_SLOTS = 1024

/** Most blocks one eth_feeHistory request covers; a larger count is clamped (geth's --rpc.feehistory limit). */
export const MAX_FEE_HISTORY_BLOCKS = 1024

/** Hashes a block or pending-tx polling filter holds between two polls; older ones are dropped first. */
export const MAX_QUEUED_HASHES = 10_000

/** Topic positions a log filter may name (eth_getLogs, eth_newFilter, logs subscriptions), as geth. */
export const MAX_TOPICS = 4

/** Largest HTTP body accepted (bytes); over it: HTTP 413 with a JSON-RPC error body. Matches geth/zkevm-node. */
export const MAX_BODY_BYTES = 5 * 1024 * 1024

/** Most items in one JSON-RPC batch; over it the whole batch gets one -32600 error (geth's default is 1000, X Layer's node had 20). */
export const MAX_BATCH_ITEMS = 100

/** Requests per second per client IP (spec section 8); each batch item and each WebSocket message counts. `--rate-limit`. */
export const RATE_LIMIT_PER_SECOND = 100

/** Widest block range of one eth_getLogs / filter query (blocks). */
export const MAX_LOG_BLOCK_RANGE = 10_000

/** Most logs one eth_getLogs / eth_getFilterLogs reply may carry. */
export const MAX_LOGS_PER_RESPONSE = 10_000

/** Installed polling filters per client IP. */
export const MAX_FILTERS_PER_CLIENT = 100

/** A filter not polled for this long is removed, as geth does (ms). */
export const FILTER_IDLE_TIMEOUT_MS = 5 * 60_000

/** Longest wait for the Redis holding shared filters (ms); past it the call fails with -32603 rather than hang. */
export const SHARED_STATE_TIMEOUT_MS = 1_000

/** Subscriptions one WebSocket connection may hold. */
export const MAX_SUBSCRIPTIONS_PER_CONNECTION = 100

/** Gas an eth_call / eth_estimateGas may use at most (geth's --rpc.gascap default). */
export const RPC_GAS_CAP = 50_000_000n

/** Default of `--rpc.evmtimeout` (ms): the wall-clock budget of one eth_call / estimate / simulation, geth's 5 s. */
export const CALL_TIMEOUT_MS = 5_000

/**
 * Longest a plain call runs before it lets the event loop turn (ms): a heavy eth_call shares the process with
 * every other request and with the sequencer's 200 ms flashblocks, which it held up for its whole run.
 */
export const CALL_SLICE_MS = 5

/** Default wall-clock budget of one debug_trace* call (ms); the `timeout` tracer option may shorten it. geth: 5 s. */
export const TRACE_TIMEOUT_MS = 5_000

/** Default of `--rpc.send-raw-transaction-sync-timeout` (ms): the longest eth_sendRawTransactionSync wait, as Base's flashblocks node. */
export const SEND_SYNC_MAX_TIMEOUT_MS = 6_000

/** Transactions (pending + queued) one sender may hold in the pool. geth: 16 executable + 64 queued per account. `--txpool-max-per-sender`. */
export const POOL_MAX_PER_SENDER = 64

/** Transactions the pool holds in all; past it a send answers `txpool is full`. `--txpool-max-total`. */
export const POOL_MAX_TOTAL = 10_000

/** Fee bump a replacement transaction needs over the one it replaces (percent), as geth's --txpool.pricebump. */
export const POOL_PRICE_BUMP_PERCENT = 10n

/** Unread bytes a WebSocket consumer may leave in its send buffer before it is disconnected. */
export const WS_MAX_BUFFERED_BYTES = 16 * 1024 * 1024

/** On close (SIGTERM), how long in-flight requests and WebSocket close handshakes may take before their sockets are cut (ms). */
export const SHUTDOWN_GRACE_MS = 4_000

/** The CLI exits this long after SIGTERM/SIGINT whatever is still running (ms): orchestrators expect 5 s at most. */
export const SHUTDOWN_EXIT_MS = 4_800

/** Addresses an X Layer `flashblocks` subscription filter may name (xlayer-reth's default). */
export const MAX_SUBSCRIBE_ADDRESSES = 1_000

// ---- follower mode (src/follower/) ----

/** Deadline of one request to the upstream node (ms); past it the call fails with UpstreamUnavailableError. `--upstream-timeout`. */
export const UPSTREAM_CALL_TIMEOUT_MS = 5_000

/** How often the head follower polls the upstream head when it has no newHeads subscription (ms); the issue asks ≤ 250. */
export const UPSTREAM_POLL_INTERVAL_MS = 250

/** Poll interval while a newHeads subscription is live: only a safety net for a notification the socket lost (ms). */
export const UPSTREAM_SUBSCRIBED_POLL_INTERVAL_MS = 2_000

/** First and largest delay before reconnecting the upstream's newHeads WebSocket (ms), doubling in between (as base/base). */
export const UPSTREAM_RECONNECT_MIN_MS = 1_000
export const UPSTREAM_RECONNECT_MAX_MS = 10_000

/** Blocks fetched in one batch while the head follower catches up (2 calls each: block + receipts). */
export const UPSTREAM_FETCH_BATCH_BLOCKS = 16

/** Recent canonical blocks the follower keeps with transactions, receipts and logs; older reads go upstream. */
export const FOLLOWER_CACHE_BLOCKS = 128

/**
 * Block times a member's head may trail the wall clock before GET /ready answers 503 and a load balancer
 * drains it: a follower's head, or the embedded chain's last sealed block. A few, so one slow block does not flap it.
 */
export const READY_MAX_HEAD_LAG_BLOCKS = 5

/** Flashblocks feed silence (ms) after which a follower drops pending (op-reth PR #22817). `--flashblocks-idle-timeout`. */
export const FLASHBLOCKS_IDLE_TIMEOUT_MS = 3_000

/** Feed keepalive: a ping this often; a pong missing at the next tick means a dead socket (base/base: 500 ms). */
export const FEED_PING_INTERVAL_MS = 500

/** Feed reconnect backoff: first wait and cap (ms), doubling in between (base/base: 1 s to 10 s). */
export const FEED_RECONNECT_MIN_MS = 1_000
export const FEED_RECONNECT_MAX_MS = 10_000

/** Calls in one HTTP batch to the upstream (this service's own batch limit; geth's is 1 000). */
export const UPSTREAM_BATCH_MAX = 100

/**
 * Accounts, slots and code the sequencer's state manager keeps cached between flashblocks (~400 bytes an
 * account); past this they are emptied once flushed (flash-builder.ts): the hot ones (fee vaults, L1Block,
 * busy senders) are read again from the trie at the next flashblock, a few hundred µs every few hundred blocks.
 */
export const LIVE_STATE_CACHED_ENTRIES = 20_000

/**
 * State values the read path keeps across state roots, keyed by content (storage by the account's storage
 * root and slot, code by its hash), so a new flashblock's root starts warm for every contract it did not
 * write. Oldest dropped first.
 */
export const STATE_CACHE_STORAGE_SLOTS = 200_000
/**
 * Decoded branch and extension nodes of the state tries the read path keeps across roots (trie-reader.ts):
 * the top three levels of a trie of a million accounts are 4 369 nodes. A branch node decoded is about
 * 2 KiB: at most ~16 MiB.
 */
export const TRIE_DECODED_NODES = 8_192
/** Bytes of contract code kept the same way (24 KiB contracts: ~1 300 of them). */
export const STATE_CACHE_CODE_BYTES = 32 * 1024 * 1024
/**
 * Answers of plain eth_calls kept per block (call-memo.ts): the most recent blocks with any (latest and
 * the pending flashblock's, and a few just replaced), calls per block, and the largest calldata or output kept.
 * At most ~4 × 512 × 6 KiB (key and answer) = 12 MiB.
 */
export const CALL_MEMO_BLOCKS = 4
export const CALL_MEMO_ENTRIES = 512
export const CALL_MEMO_MAX_BYTES = 2_048
/** Block records whose formatted receipts are kept for the next reader (format/receipt.ts). */
export const FORMATTED_RECEIPT_BLOCKS = 16
/** Accounts one state root's read view remembers (a root is replaced every flashblock). */
export const STATE_VIEW_ACCOUNTS = 10_000
/**
 * Ids of what was asked before, in each cache's admission filter (src/evm/doorkeeper.ts: the call memo's, the
 * read views' accounts, the slot cache's, the trie reader's nodes; 4 bytes each, 128 KiB a cache), so that a
 * cache keeps an entry from its second sighting on, not a one-off's (the shared kit's distinct calls and
 * balances: an entry a request, copied and promoted to the old generation for nothing). Under a stream of
 * one-offs at 10 000 a second an id stays ~3 s (each one-off overwrites one of this many), longer than a block:
 * what was asked at an earlier block or root is still known at the next, and kept at its first sighting there.
 */
export const SEEN_IDS = 32_768
/** How long a transaction this follower forwarded counts towards its sender's pending nonce (ms) unless a block includes it. */
export const FOLLOWER_FORWARDED_TTL_MS = 60_000

/** Upstream blocks whose state snapshots (batched reads) a follower keeps for calls and state reads. */
export const FOLLOWER_SNAPSHOTS_KEPT = 8

/** Pending state views (one per flashblock root) a follower keeps for reads racing the next flashblock. */
export const FOLLOWER_PENDING_VIEWS_KEPT = 4

/**
 * Blocks a follower's pending may run ahead of its upstream's head: flashblocks further ahead are ignored (a lagging
 * upstream), and a pending span found deeper at a canonical block (the head went back) is reset, not rebuilt.
 */
export const FOLLOWER_PENDING_MAX_AHEAD_BLOCKS = 4

/**
 * How long a follower holds a new block's first flashblock (and the frames queued behind it) while its upstream's
 * head catches up to the parent (ms): missing index 0 would lose the whole block's preconfirmations.
 */
export const FOLLOWER_PARENT_WAIT_MS = 10_000

/** Most blocks one eth_simulateV1 request may simulate, gaps included (geth's maxSimulateBlocks; BLOCKHASH's reach). */
export const MAX_SIMULATE_BLOCKS = 256

/** Most calls in one simulated block, and in one eth_simulateV1 request (geth's limits). */
export const MAX_SIMULATE_CALLS_PER_BLOCK = 5_000
export const MAX_SIMULATE_CALLS = 10_000

/** Seconds between simulated blocks whose timestamp is not given (geth's timestampIncrement). */
export const SIMULATE_TIMESTAMP_STEP = 12n

/**
 * Most blocks one anvil_mine / hardhat_mine / evm_mine call builds: each is a real block (an L1-info deposit,
 * a flashblock, a seal), about a millisecond apiece, and the chain waits for them; anvil sets no limit.
 */
export const DEV_MINE_MAX_BLOCKS = 100_000n

/**
 * Longest block time evm_setIntervalMining sets (s): the sequencer's timer must stay under setTimeout's
 * 2^31 - 1 ms (about 24.8 days). anvil takes any 64-bit number; Hardhat's same-named method takes ms, so
 * viem's hardhat mode sends 1000 times the seconds, still far inside this.
 */
export const DEV_MAX_BLOCK_INTERVAL_SECONDS = 2_000_000n

/**
 * Gas the gasless transactions of one block may use (xlayer-reth's `--builder.gasless-block-gas-limit`,
 * crates/builder/src/args/op.rs, default 60 000 000; 0 = no budget). `--gasless-block-gas-limit`.
 */
export const GASLESS_BLOCK_GAS_LIMIT = 60_000_000n

/** The gasless whitelist's cap on a rule's gas limit (GaslessWhitelist.initialize sets maxGasLimit = 2^24). */
export const GASLESS_MAX_GAS_LIMIT = 16_777_216n

/** eth_createAccessList's rounds before giving up on a list that keeps changing (each adds what the last list's gas let it reach). */
export const ACCESS_LIST_MAX_ROUNDS = 16

/** The tip the oracle suggests for a block without samples (wei): geth's default, and anvil's answer on an idle chain. */
export const ORACLE_DEFAULT_TIP = 1_000_000_000n

/** Blocks back from the newest the tip oracle samples (geth's gas price oracle: 20). */
export const ORACLE_BLOCKS = 20

/** The cheapest tips the oracle takes from each block (geth: 3). */
export const ORACLE_SAMPLES_PER_BLOCK = 3

/** The percentile of the samples the oracle suggests (geth: 60). */
export const ORACLE_PERCENTILE = 60

/** The highest tip the oracle suggests (wei; geth: 500 gwei). */
export const ORACLE_MAX_TIP = 500_000_000_000n

/** Tips under this are not samples (wei; geth: 2). */
export const ORACLE_IGNORE_UNDER = 2n

/** Interval of the WebSocket keep-alive sweep: a socket that misses one pong is terminated at the next sweep. */
export const WS_PING_INTERVAL_MS = 30_000

/** The shared rate limiter's Redis: a request must not wait on a hung Redis longer than this (ms); past it the request is served as in an outage. */
export const REDIS_COMMAND_TIMEOUT_MS = 500

/** Longest pause between the rate limiter's reconnection attempts to Redis (ms): how soon a recovered Redis is noticed. */
export const REDIS_MAX_RECONNECT_DELAY_MS = 1000

/** How often the in-memory rate limiter drops expired windows, so a scan over many source IPs does not grow the map forever. */
export const RATE_LIMIT_SWEEP_INTERVAL_MS = 10_000

/**
 * Blocks older than a follower's cache kept after an upstream read (up to twice as many before the oldest
 * go): a client paging through history asks for the same block twice.
 */
export const FOLLOWER_HISTORY_BLOCKS_KEPT = 32

/**
 * Idle EVMs of the plain-call path kept (evm/execution/fast-call.ts): calls interleave at every state read, and
 * each needs its own journal. As many as calls in flight at once: with 8 kept, 16 clients' distinct eth_calls
 * made a new EVM for half the calls (674-907 µs CPU per call in process, 156-200 µs with 64 kept); an idle
 * EVM holds ~90 KB of heap.
 */
export const CALL_EVMS_MAX_IDLE = 64

/**
 * eth_calls the CLI's service makes to itself after start-up (src/warm-up.ts), so its users' first calls
 * do not run through code V8 has not compiled yet. 8 (of 40-152 bytes' L1 fee) cost ~55-65 ms of CPU and
 * halved a fresh server's first quote (bench/cold-calls.ts); 20 of 200-504 bytes cost ~130-240 and did no better.
 */
export const WARM_UP_CALLS = 8

/**
 * Slices of the interpreter's heating loop the CLI's warm-up runs after its calls, one per turn of the event
 * loop (src/evm/interpreter/heat.ts, ~2-4 ms each once hot): V8 had optimised every arithmetic helper by the
 * ~22nd of the 24 slices of 120 000 gas it once had (--trace-opt); a round now also writes slots and makes 8 child
 * calls, in 40 slices of 480 000 gas. A CLI process's CPU in the 6 s after it is ready, less its idle CPU: 333-365
 * ms against 167-281 with the 24 smaller slices (load 9-11), most of it V8's compiler threads.
 */
export const WARM_UP_HEAT_SLICES = 40

/**
 * eth_calls of the warm-up with a 24 KB calldata to an account without code, after the L1 fee calls: a call's
 * intrinsic gas counts its calldata's zero bytes in a loop, which small calls never make hot; an aggregator's
 * first call (19 KB) ran it in V8's interpreter (~1 ms, cold; 0.04 optimised) and had it compiled during the call.
 */
export const WARM_UP_WIDE_CALLS = 3

/** The VM pool's state roots with idle VMs kept (evm/execution/vm-pool.ts): latest, pending and a few just replaced. */
export const VM_POOL_MAX_ROOTS = 8

/** Idle VMs kept per root: enough for the calls that overlap in practice. */
export const VM_POOL_MAX_IDLE_PER_ROOT = 4

/** The embedded chain's state roots whose read views (and their caches) are kept: latest, pending and a few before them. */
export const READ_VIEWS_KEPT = 8

/** Pending flashblock roots the state snapshot keeps a layer for (a block's flashblocks; src/evm/state-snapshot.ts). */
export const SNAPSHOT_PENDING_ROOTS = 16

/**
 * Decoded trie nodes the state snapshot's diffs keep for the next diffs, per generation (two, turned at each
 * sealed block; src/evm/recent-nodes.ts): a block of 100 changed accounts reads ~800, a node is ~1 KB.
 */
export const SNAPSHOT_RECENT_NODES = 4_096

/** The sequencer's cadence figures (tick jitter, build time) kept for their percentiles: the last this many. */
export const CADENCE_SAMPLES = 10_000

/**
 * Without --data-dir: the newest blocks kept decoded (what reads, BLOCKHASH and the next block's parent want);
 * older ones are kept packed as bytes (store.ts), and the last MEMORY_UNPACKED_BLOCKS of those read stay decoded.
 */
export const MEMORY_RECENT_BLOCKS = 64
export const MEMORY_UNPACKED_BLOCKS = 16

/**
 * --data-dir: decoded blocks kept in memory; 64 covers a minute of 1 s blocks without holding a burst of full ones.
 * Their transactions' positions are indexed beside them (disk-history.ts: a wallet's first receipt poll after its
 * block is sealed reads no LevelDB), 125 bytes a transaction measured: 0.4 MB at 50 transfers a block, ~11 MB for
 * 64 full 30M-gas blocks of ~1 400 transfers, beside the decoded blocks' few KB a transaction.
 */
export const DISK_RECENT_BLOCKS_CACHED = 64

/**
 * --data-dir: transaction positions kept after a lookup (geth's txLookupCache holds 1 024 too). A wallet polls the
 * receipts of what it sent; each answer was a LevelDB read that costs more as the database grows (aged/fresh
 * receipt 1.20× at a third of an hour's transfers). A data directory's history only grows: a position never changes.
 */
export const DISK_TX_POSITIONS_CACHED = 1024

/** --data-dir: preimages remembered as already on disk, so the slots every block touches are not written again. */
export const PREIMAGES_KNOWN_ON_DISK = 100_000

/**
 * --data-dir: bytes of trie nodes kept in memory in front of LevelDB (node-cache.ts: two generations of half this;
 * a node is ~70-550 bytes, so ~40 000-100 000 nodes, as @ethereumjs's 50 000-entry LRU held before).
 */
export const TRIE_NODE_CACHE_BYTES = 16 << 20

/**
 * --history's default in memory: the state of the last 128 blocks, as geth keeps in memory (TriesInMemory) and
 * op-geth serves (older: "missing trie node"), so the heap does not grow with every block's rewritten trie paths
 * (an hour at 50 transfers a second kept 810 MB of live heap, ~23 MB of it the last 128 blocks'). anvil keeps
 * 500 states in memory and spills older ones to a temporary directory; Hardhat keeps all. `--history all`
 * keeps all; a --data-dir keeps all unless --history is given (disk, not heap).
 */
export const MEMORY_HISTORY_BLOCKS = 128

/** --history with --data-dir: blocks between two prune passes (fewer when --history is smaller). */
export const PRUNE_EVERY_BLOCKS = 256

/**
 * In memory: blocks after which the trie nodes written while a block was built that its sealed state does not
 * hold (each transaction's rewritten path, its flashblocks' states) are deleted; a pending read started on a
 * flashblock of that block has had this long (memory-pruner.ts).
 */
export const PRUNE_UNSEALED_KEPT_BLOCKS = 8

/**
 * In memory: the size of the buffers trie nodes are packed into (node-slabs.ts), a power of two: large enough
 * that an aged state is a few hundred buffers, small enough that one kept alive by a stray view costs little.
 */
export const NODE_SLAB_BYTES = 1 << 20

/** --history: trie nodes a prune pass marks between two pauses for the event loop (~1 µs each in memory, ~6 on disk). */
export const PRUNE_MARK_SLICE = 5_000

/** --history: deletes per LevelDB batch while a prune pass sweeps. */
export const PRUNE_SWEEP_BATCH = 10_000

/**
 * Share of the flashblock interval the sequencer spends starting transactions; the rest is commitment work
 * (roots, receipts, publishing).
 */
export const FLASHBLOCK_EXECUTION_SHARE = 0.6
