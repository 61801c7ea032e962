/**
 * What the service can be told: the Config every part reads its settings from, the value types of its
 * settings, and the error a setting the service cannot start with raises.
 */
import type { L1Settings } from '../opstack/l1-origin.js'
import type { Network } from '../opstack/networks.js'

export type { Network }

/** A target of the gasless whitelist (xlayer-reth's `fullyGaslessTargets`): every call to it may be gasless. */
export interface GaslessTarget {
  address: Uint8Array
  /** The most gas a gasless call to it may ask for (the whitelist's per-rule gasLimit). */
  gasLimit: bigint
}

/** `--feed-dialect`: how /ws/flashblocks writes a flashblock (test/fixtures/feed-dialects/README.md). */
export type FeedDialect = 'xlayer' | 'base'
export const FEED_DIALECTS: readonly FeedDialect[] = ['xlayer', 'base']

export interface Config {
  host: string
  port: number
  network: Network
  /** 196 on mainnet, 1952 on testnet. */
  chainId: number
  /** A block is sealed this often (ms). */
  blockTimeMs: number
  /** A flashblock (preconfirmation increment) is published this often (ms). */
  flashblockIntervalMs: number
  /** Block gas limit; follows the network (X Layer's genesis gas limit) unless given. */
  gasLimit: bigint
  /** EIP-1559 parameters every block's extraData carries (Holocene/Jovian); follow the network unless given. */
  eip1559Denominator: bigint
  eip1559Elasticity: bigint
  /** Jovian's floor of the next base fee, carried in extraData (`--min-base-fee`). */
  minBaseFee: bigint
  /** Gas the gasless (zero-priced, whitelisted) transactions of one block may use; 0 = no budget. */
  gaslessBlockGasLimit: bigint
  /** `--gasless-targets`: call targets the embedded chain's gasless whitelist starts with. */
  gaslessTargets: GaslessTarget[]
  /** BIP-39 phrase the dev accounts derive from (m/44'/60'/0'/0/i, as anvil and hardhat). */
  mnemonic: string
  accounts: number
  /** Genesis balance of each dev account, in wei. */
  balance: bigint
  /** false (`--no-dev-accounts`) turns eth_sendTransaction and eth_sign off. */
  devAccounts: boolean
  /** Transactions one sender may hold in the pool; past it a send answers `txpool is full`. */
  txpoolMaxPerSender: number
  /** Transactions the pool holds in all. */
  txpoolMaxTotal: number
  /** Requests per second per client IP; 0 turns the limit off. */
  rateLimit: number
  /** Shared limiter state for replicas; absent = in-process counters. */
  redisUrl?: string
  /** CIDRs whose X-Forwarded-For / X-Real-IP is believed when finding the client IP. */
  trustedProxies: string[]
  /** Refuse requests (rather than serve them unlimited) while Redis is unreachable. */
  rateLimitFailClosed: boolean
  quiet: boolean
  /** --data-dir: the chain lives in this directory (LevelDB) and survives restarts and crashes. */
  dataDir?: string
  /** --dump-state: at exit, the head's state goes to this file (anvil's format). */
  dumpState?: string
  /** --load-state: a fresh chain starts with the accounts of this file. */
  loadState?: string
  /** --history: keep the state of the last N blocks (in memory or in --data-dir), or all; absent = MEMORY_HISTORY_BLOCKS in memory, all in a data directory. */
  history?: number | 'all'
  /** Follower mode (`--upstream`): the upstream node's HTTP JSON-RPC; absent = the embedded chain. */
  upstream?: string
  /** `--upstream-feed`: the raw flashblocks feed (WebSocket) a follower re-executes. */
  upstreamFeed?: string
  /** `--sequencer`: where a follower forwards eth_sendRawTransaction (default: the upstream). */
  sequencer?: string
  /** `--flashblocks-idle-timeout`: feed silence (ms) after which a follower drops pending. */
  flashblocksIdleTimeoutMs: number
  /** `--upstream-timeout`: the deadline (ms) of one request a follower makes to its upstream or sequencer. */
  upstreamTimeoutMs: number
  /** `--follower-cache-blocks`: recent upstream blocks a follower keeps in full. */
  followerCacheBlocks: number
  /** OP Stack: user transactions pay the L1 data fee and the operator fee into the fee vaults (`--no-op-fees`). */
  opFees: boolean
  /** The simulated L1's prices and the fee scalars every block's L1-info deposit carries. */
  l1Settings: L1Settings
  /** `--genesis`: a geth genesis.json to start from instead of the dev genesis (its chain id wins). */
  genesis?: string
  /** `--import`: RLP blocks (as `geth import` reads them) executed on top of the genesis at start. */
  importFile?: string
  /** false (`--no-mining`): no blocks are built; transactions wait in the pool. */
  mining: boolean
  /** `--feed-dialect`: X Layer's (target_index, end-of-block message) or Base's feed messages. */
  feedDialect: FeedDialect
  /**
   * `--rpc.send-raw-transaction-sync-timeout` (op-reth's flag): the longest eth_sendRawTransactionSync waits,
   * in ms; a requested timeout is clamped to it, and none (or 0) waits this long.
   */
  sendSyncTimeoutMs: number
  /**
   * `--rpc.evmtimeout` (geth's flag): the time budget of each eth_call, eth_estimateGas, eth_createAccessList
   * and eth_simulateV1, in ms; past it the request answers -32002 `execution aborted (timeout = …)`. 0 = none.
   */
  evmTimeoutMs: number
  /** `--fork-url`: the embedded chain starts on this node's state and chain id (src/chain/fork/). */
  forkUrl?: string
  /** `--fork-block-number`: the upstream block to fork at (default: its latest). */
  forkBlockNumber?: bigint
  /**
   * The dev-node methods (anvil_*, evm_*, hardhat_*): true `--dev-methods`, false `--no-dev-methods`,
   * absent = on when the service binds a loopback address only (see devMethodsServed).
   */
  devMethods?: boolean
}

/** A setting the service cannot start with; the message names the flag and says what is wrong. */
export class ConfigError extends Error {
  override name = 'ConfigError'
}
