/**
 * The service's configuration: its defaults (the only ones: the chain factory, the CLI and --help read
 * them here) and the checks every source of settings goes through (CLI flags and `startService` overrides
 * alike), so a bad value fails at start with a sentence naming the flag. The flags are read in flags.ts.
 */
import { isIP } from 'node:net'
import { validateMnemonic } from '@scure/bip39'
import { wordlist } from '@scure/bip39/wordlists/english.js'
import { DEFAULT_L1_SETTINGS, type L1Settings } from './opstack/l1-origin.js'
import { NETWORKS, type Network } from './opstack/networks.js'
import {
  FLASHBLOCKS_IDLE_TIMEOUT_MS,
  FOLLOWER_CACHE_BLOCKS,
  GASLESS_BLOCK_GAS_LIMIT,
  GASLESS_MAX_GAS_LIMIT,
  POOL_MAX_PER_SENDER,
  SEND_SYNC_MAX_TIMEOUT_MS,
  POOL_MAX_TOTAL,
  RATE_LIMIT_PER_SECOND,
} from './limits.js'

export type { Network }

/** A target of the gasless whitelist (xlayer-reth's `fullyGaslessTargets`): every call to it may be gasless. */
export interface GaslessTarget {
  address: Uint8Array
  /** The most gas a gasless call to it may ask for (the whitelist's per-rule gasLimit). */
  gasLimit: bigint
}

/** `--feed-dialect`: how /ws/flashblocks writes a flashblock (test/fixtures/feed-dialects/README.md). */
export type FeedDialect = 'xlayer' | 'base'
const FEED_DIALECTS: readonly FeedDialect[] = ['xlayer', 'base']

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
  /** --history: keep the state of the last N blocks (with --data-dir); absent = keep all. */
  history?: number
  /** Follower mode (`--upstream`): the upstream node's HTTP JSON-RPC; absent = the embedded chain. */
  upstream?: string
  /** `--upstream-feed`: the raw flashblocks feed (WebSocket) a follower re-executes. */
  upstreamFeed?: string
  /** `--sequencer`: where a follower forwards eth_sendRawTransaction (default: the upstream). */
  sequencer?: string
  /** `--flashblocks-idle-timeout`: feed silence (ms) after which a follower drops pending. */
  flashblocksIdleTimeoutMs: number
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

export const CHAIN_IDS: Readonly<Record<Network, number>> = {
  mainnet: NETWORKS.mainnet.chainId,
  testnet: NETWORKS.testnet.chainId,
}

/** anvil's and hardhat's default phrase, so wallets and scripts that know those accounts work unchanged. */
export const DEFAULT_MNEMONIC = 'test test test test test test test test test test test junk'

export const WEI_PER_OKB = 10n ** 18n

/** A setting the service cannot start with; the message names the flag and says what is wrong. */
export class ConfigError extends Error {
  override name = 'ConfigError'
}

/** The settings whose defaults follow the network (X Layer's chain parameters, src/opstack/networks.ts). */
type NetworkSettings = 'chainId' | 'gasLimit' | 'eip1559Denominator' | 'eip1559Elasticity'

/** Every default but those that follow the network. */
export const CONFIG_DEFAULTS: Readonly<Omit<Config, NetworkSettings>> = {
  host: '127.0.0.1',
  port: 8545,
  network: 'mainnet',
  blockTimeMs: 1000,
  flashblockIntervalMs: 200,
  minBaseFee: 0n,
  gaslessBlockGasLimit: GASLESS_BLOCK_GAS_LIMIT,
  gaslessTargets: [],
  mnemonic: DEFAULT_MNEMONIC,
  accounts: 10,
  balance: 10_000n * WEI_PER_OKB,
  devAccounts: true,
  txpoolMaxPerSender: POOL_MAX_PER_SENDER,
  txpoolMaxTotal: POOL_MAX_TOTAL,
  rateLimit: RATE_LIMIT_PER_SECOND,
  trustedProxies: [],
  rateLimitFailClosed: false,
  quiet: false,
  flashblocksIdleTimeoutMs: FLASHBLOCKS_IDLE_TIMEOUT_MS,
  followerCacheBlocks: FOLLOWER_CACHE_BLOCKS,
  opFees: true,
  l1Settings: DEFAULT_L1_SETTINGS,
  mining: true,
  feedDialect: 'xlayer',
  sendSyncTimeoutMs: SEND_SYNC_MAX_TIMEOUT_MS,
}

/** The defaults of a network: its chain id, gas limit and EIP-1559 parameters. */
export function networkDefaults(network: Network): Pick<Config, NetworkSettings> {
  const preset = NETWORKS[network] ?? NETWORKS.mainnet
  return {
    chainId: preset.chainId,
    gasLimit: preset.gasLimit,
    eip1559Denominator: preset.eip1559Denominator,
    eip1559Elasticity: preset.eip1559Elasticity,
  }
}

/** The defaults with the given settings on top; the chain id and chain parameters follow the network unless given. */
export function defaultConfig(overrides: Partial<Config> = {}): Config {
  const given = Object.fromEntries(
    Object.entries(overrides).filter(([, value]) => value !== undefined),
  ) as Partial<Config>
  const network = given.network ?? CONFIG_DEFAULTS.network
  return {
    ...CONFIG_DEFAULTS,
    ...networkDefaults(network),
    ...given,
    trustedProxies: [...(given.trustedProxies ?? [])],
    gaslessTargets: [...(given.gaslessTargets ?? [])],
    l1Settings: { ...CONFIG_DEFAULTS.l1Settings, ...given.l1Settings },
  }
}

function fail(message: string): never {
  throw new ConfigError(message)
}

function isIntegerIn(value: number, min: number, max: number): boolean {
  return Number.isInteger(value) && value >= min && value <= max
}

/** True for `10.0.0.0/8`, `::1/128`, or a bare address. */
function isCidr(text: string): boolean {
  const [address, prefix, ...rest] = text.split('/')
  const family = isIP(address ?? '')
  if (family === 0 || rest.length > 0) return false
  if (prefix === undefined) return true
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128)
}

/** True for an address only this machine reaches: 127.0.0.0/8, ::1, localhost. */
function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '')
  return bare === 'localhost' || bare === '::1' || /^127\.\d+\.\d+\.\d+$/.test(bare)
}

/**
 * Whether the dev-node methods are served: they change state without a signature, so never in follower
 * mode, and on a non-loopback --host only when --dev-methods asks for them.
 */
export function devMethodsServed(config: Pick<Config, 'devMethods' | 'upstream' | 'host'>): boolean {
  if (config.upstream !== undefined) return false
  return config.devMethods ?? isLoopback(config.host)
}

/** Throws a ConfigError naming the flag of the first unusable setting. */
export function checkConfig(config: Config): Config {
  if (!isIntegerIn(config.port, 0, 65_535)) fail(`--port must be an integer from 0 to 65535, got ${config.port}`)
  if (config.host.trim() === '') fail('--host must not be empty')
  const l1 = config.l1Settings
  const within = (flag: string, value: bigint, bits: number) =>
    (value < 0n || value >= 1n << BigInt(bits)) &&
    fail(`--${flag} must be a whole number below 2^${bits}, got ${value}`)
  within('l1-base-fee', l1.l1BaseFee, 256)
  within('l1-blob-base-fee', l1.blobBaseFee, 256)
  within('l1-fee-scalar', l1.baseFeeScalar, 32)
  within('l1-blob-fee-scalar', l1.blobBaseFeeScalar, 32)
  within('operator-fee-scalar', l1.operatorFeeScalar, 32)
  within('operator-fee-constant', l1.operatorFeeConstant, 64)
  within('da-footprint-gas-scalar', l1.daFootprintGasScalar, 16)
  if (!(config.network in CHAIN_IDS)) fail(`--network must be mainnet or testnet, got "${config.network}"`)
  if (!isIntegerIn(config.chainId, 1, Number.MAX_SAFE_INTEGER))
    fail(`chain id must be a positive integer, got ${config.chainId}`)
  if (!isIntegerIn(config.blockTimeMs, 10, 3_600_000))
    fail(`--block-time must be from 0.01 to 3600 seconds, got ${config.blockTimeMs / 1000}`)
  if (!isIntegerIn(config.flashblockIntervalMs, 10, 3_600_000)) {
    fail(`--flashblock-interval must be an integer from 10 ms, got ${config.flashblockIntervalMs}`)
  }
  if (config.flashblockIntervalMs > config.blockTimeMs) {
    fail(
      `--flashblock-interval (${config.flashblockIntervalMs} ms) must not exceed the block time (${config.blockTimeMs} ms)`,
    )
  }
  if (config.gasLimit < 21_000n || config.gasLimit > 2n ** 63n - 1n)
    fail(`--gas-limit must be from 21000 to 2^63-1, got ${config.gasLimit}`)
  for (const [flag, value] of [
    ['eip1559-denominator', config.eip1559Denominator],
    ['eip1559-elasticity', config.eip1559Elasticity],
  ] as const)
    if (value < 1n || value >= 1n << 32n) fail(`--${flag} must be a whole number from 1 to 2^32-1, got ${value}`)
  within('min-base-fee', config.minBaseFee, 64)
  within('gasless-block-gas-limit', config.gaslessBlockGasLimit, 64)
  for (const target of config.gaslessTargets) {
    if (target.address.length !== 20) fail('--gasless-targets: an address is 20 bytes (0x and 40 hex digits)')
    if (target.gasLimit < 1n || target.gasLimit > GASLESS_MAX_GAS_LIMIT)
      fail(`--gasless-targets: a gas limit must be from 1 to ${GASLESS_MAX_GAS_LIMIT}, got ${target.gasLimit}`)
  }
  if (!validateMnemonic(config.mnemonic.trim().normalize('NFKD'), wordlist))
    fail('--mnemonic is not a valid BIP-39 English phrase')
  if (!isIntegerIn(config.accounts, 0, 10_000))
    fail(`--accounts must be an integer from 0 to 10000, got ${config.accounts}`)
  if (config.balance < 0n) fail('--balance must not be negative')
  if (!isIntegerIn(config.txpoolMaxPerSender, 1, 1_000_000))
    fail(`--txpool-max-per-sender must be an integer from 1, got ${config.txpoolMaxPerSender}`)
  if (!isIntegerIn(config.txpoolMaxTotal, 1, 10_000_000))
    fail(`--txpool-max-total must be an integer from 1, got ${config.txpoolMaxTotal}`)
  if (!isIntegerIn(config.rateLimit, 0, 1_000_000_000))
    fail(`--rate-limit must be a whole number of requests per second (0 = off), got ${config.rateLimit}`)
  if (config.redisUrl !== undefined && !/^rediss?:\/\/\S+$/.test(config.redisUrl)) {
    fail(`--redis-url must look like redis://host:6379, got "${config.redisUrl}"`)
  }
  for (const [flag, url, scheme] of [
    ['--upstream', config.upstream, /^https?:\/\/\S+$/],
    ['--sequencer', config.sequencer, /^https?:\/\/\S+$/],
    ['--upstream-feed', config.upstreamFeed, /^wss?:\/\/\S+$/],
    ['--fork-url', config.forkUrl, /^https?:\/\/\S+$/],
  ] as const) {
    if (url !== undefined && !scheme.test(url))
      fail(
        `${flag} must be ${flag === '--upstream-feed' ? 'a ws:// or wss://' : 'an http:// or https://'} URL, got "${url}"`,
      )
  }
  if ((config.upstreamFeed !== undefined || config.sequencer !== undefined) && config.upstream === undefined)
    fail('--upstream-feed and --sequencer need --upstream (follower mode)')
  if (!isIntegerIn(config.flashblocksIdleTimeoutMs, 10, 3_600_000))
    fail(`--flashblocks-idle-timeout must be a whole number of ms from 10, got ${config.flashblocksIdleTimeoutMs}`)
  if (!isIntegerIn(config.followerCacheBlocks, 1, 100_000))
    fail(`--follower-cache-blocks must be an integer from 1 to 100000, got ${config.followerCacheBlocks}`)
  if (!FEED_DIALECTS.includes(config.feedDialect))
    fail(`--feed-dialect must be ${FEED_DIALECTS.join(' or ')}, got "${config.feedDialect}"`)
  if (!isIntegerIn(config.sendSyncTimeoutMs, 1, 3_600_000))
    fail(
      `--rpc.send-raw-transaction-sync-timeout must be from 1 ms to 3600 s (as 6s, 500ms, or seconds), got ${config.sendSyncTimeoutMs} ms`,
    )
  if (config.devMethods === true && config.upstream !== undefined)
    fail('--dev-methods does not apply in follower mode (--upstream): a follower never changes state unsigned')
  if (config.importFile !== undefined && config.genesis === undefined)
    fail('--import needs --genesis (the genesis the blocks build on)')
  if (config.genesis !== undefined && config.dataDir !== undefined)
    fail('--genesis does not combine with --data-dir (the chain is rebuilt from its files at every start)')
  checkFork(config)
  for (const proxy of config.trustedProxies) {
    if (!isCidr(proxy)) fail(`--trusted-proxies: "${proxy}" is not an IP address or CIDR range such as 10.0.0.0/8`)
  }
  return config
}

/** Fork mode starts the embedded chain from an upstream's state, so what makes a chain elsewhere conflicts. */
function checkFork(config: Config): void {
  if (config.forkBlockNumber !== undefined && config.forkUrl === undefined)
    fail('--fork-block-number needs --fork-url (the node to fork)')
  if (config.forkBlockNumber !== undefined && config.forkBlockNumber < 0n)
    fail(`--fork-block-number must be a block number, got ${config.forkBlockNumber}`)
  if (config.forkUrl === undefined) return
  const conflicts: [string, unknown][] = [
    ['--upstream (follower mode)', config.upstream],
    ['--genesis', config.genesis],
    ['--load-state', config.loadState],
    ['--dump-state', config.dumpState],
  ]
  for (const [flag, value] of conflicts)
    if (value !== undefined)
      fail(`--fork-url does not combine with ${flag}: the chain starts from the upstream's state`)
  if (config.dataDir !== undefined)
    fail(
      '--fork-url does not combine with --data-dir: a forked chain lives in memory (its state is read from the upstream)',
    )
}
