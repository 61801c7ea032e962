/**
 * The checks every source of settings goes through, CLI flags and `startService` overrides alike: the
 * settings given -> the complete Config, or a ConfigError whose sentence names the flag of the first
 * unusable setting. A setting's shape (a number where a number goes) is the flag reader's business
 * (flag-values.ts); whether the value can be served with, alone and beside the others, is decided here.
 */
import { isIP } from 'node:net'
import { validateMnemonic } from '@scure/bip39'
import { wordlist } from '@scure/bip39/wordlists/english.js'
import { GASLESS_MAX_GAS_LIMIT } from '../limits.js'
import { CHAIN_IDS, defaultConfig } from './defaults.js'
import { CHAIN_FLAGS } from './flags/table.js'
import { type Config, ConfigError, FEED_DIALECTS } from './settings.js'

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

/**
 * The settings given (flags, or startService's overrides) -> the complete Config with every default filled
 * in; throws a ConfigError naming the flag of the first unusable setting.
 */
export function checkConfig(settings: Partial<Config>): Config {
  checkHistory(settings)
  // a network no one knows is named as such, even beside --upstream
  if (settings.network !== undefined && !(settings.network in CHAIN_IDS))
    fail(`--network must be mainnet or testnet, got "${settings.network}"`)
  if (settings.upstream !== undefined) refuseChainSettings(settings)
  const config = defaultConfig(settings)
  checkServing(config)
  checkL1(config.l1Settings)
  checkChain(config)
  checkFollower(config)
  checkModes(config)
  checkFork(config)
  for (const proxy of config.trustedProxies) {
    if (!isCidr(proxy)) fail(`--trusted-proxies: "${proxy}" is not an IP address or CIDR range such as 10.0.0.0/8`)
  }
  return config
}

/** A follower serves the upstream's chain: a setting of the embedded chain given beside --upstream is a mistake. */
function refuseChainSettings(settings: Partial<Config>): void {
  for (const [name, flag] of CHAIN_FLAGS) {
    const given =
      flag.kind === 'switch'
        ? settings[flag.to] === flag.sets
        : flag.kind === 'value' && settings[flag.to] !== undefined
    if (given)
      fail(
        `--${name} does not apply in follower mode (--upstream): the chain, its blocks and accounts are the upstream's`,
      )
  }
}

function checkHistory({ history }: Partial<Config>): void {
  if (history === undefined || history === 'all') return
  if (!Number.isInteger(history) || history < 1) fail('--history expects at least 1 block')
}

/** Where and how the service listens, and its per-client limits. */
function checkServing(config: Config): void {
  if (!isIntegerIn(config.port, 0, 65_535)) fail(`--port must be an integer from 0 to 65535, got ${config.port}`)
  if (config.host.trim() === '') fail('--host must not be empty')
  if (!isIntegerIn(config.rateLimit, 0, 1_000_000_000))
    fail(`--rate-limit must be a whole number of requests per second (0 = off), got ${config.rateLimit}`)
  if (config.redisUrl !== undefined && !/^rediss?:\/\/\S+$/.test(config.redisUrl)) {
    fail(`--redis-url must look like redis://host:6379, got "${config.redisUrl}"`)
  }
  if (!FEED_DIALECTS.includes(config.feedDialect))
    fail(`--feed-dialect must be ${FEED_DIALECTS.join(' or ')}, got "${config.feedDialect}"`)
  if (!isIntegerIn(config.sendSyncTimeoutMs, 1, 3_600_000))
    fail(
      `--rpc.send-raw-transaction-sync-timeout must be from 1 ms to 3600 s (as 6s, 500ms, or seconds), got ${config.sendSyncTimeoutMs} ms`,
    )
  // geth takes a negative timeout as none; a setting that says less than nothing is more likely a slip
  if (!(config.evmTimeoutMs >= 0 && Number.isFinite(config.evmTimeoutMs)))
    fail(`--rpc.evmtimeout must be 0 (no timeout) or a duration such as 5s, got ${config.evmTimeoutMs} ms`)
}

function within(flag: string, value: bigint, bits: number): void {
  if (value < 0n || value >= 1n << BigInt(bits)) fail(`--${flag} must be a whole number below 2^${bits}, got ${value}`)
}

/** The simulated L1's prices and scalars, as wide as the L1-info deposit's fields. */
function checkL1(l1: Config['l1Settings']): void {
  within('l1-base-fee', l1.l1BaseFee, 256)
  within('l1-blob-base-fee', l1.blobBaseFee, 256)
  within('l1-fee-scalar', l1.baseFeeScalar, 32)
  within('l1-blob-fee-scalar', l1.blobBaseFeeScalar, 32)
  within('operator-fee-scalar', l1.operatorFeeScalar, 32)
  within('operator-fee-constant', l1.operatorFeeConstant, 64)
  within('da-footprint-gas-scalar', l1.daFootprintGasScalar, 16)
}

/** The embedded chain: its network, cadence, block parameters, accounts and pool. */
function checkChain(config: Config): void {
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
}

/** Follower mode's URLs and its feed and cache settings. */
function checkFollower(config: Config): void {
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
  if (!isIntegerIn(config.upstreamTimeoutMs, 10, 600_000))
    fail(`--upstream-timeout must be a whole number of ms from 10 to 600000, got ${config.upstreamTimeoutMs}`)
  if (!isIntegerIn(config.followerCacheBlocks, 1, 100_000))
    fail(`--follower-cache-blocks must be an integer from 1 to 100000, got ${config.followerCacheBlocks}`)
}

/** Settings that exclude one another: the dev methods in follower mode, a geth chain kept in a data dir. */
function checkModes(config: Config): void {
  if (config.devMethods === true && config.upstream !== undefined)
    fail('--dev-methods does not apply in follower mode (--upstream): a follower never changes state unsigned')
  if (config.importFile !== undefined && config.genesis === undefined)
    fail('--import needs --genesis (the genesis the blocks build on)')
  if (config.genesis !== undefined && config.dataDir !== undefined)
    fail('--genesis does not combine with --data-dir (the chain is rebuilt from its files at every start)')
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
    ['--history', config.history],
  ]
  for (const [flag, value] of conflicts)
    if (value !== undefined)
      fail(`--fork-url does not combine with ${flag}: the chain starts from the upstream's state`)
  if (config.dataDir !== undefined)
    fail(
      '--fork-url does not combine with --data-dir: a forked chain lives in memory (its state is read from the upstream)',
    )
}
