/**
 * The service's configuration: defaults, the checks every source of settings goes through (CLI flags and
 * `startService` overrides alike), and the command-line flags, so a bad value fails at start with a
 * sentence naming the flag instead of node's parser wording.
 */
import { isIP } from 'node:net'
import { parseArgs as parseFlags } from 'node:util'
import { validateMnemonic } from '@scure/bip39'
import { wordlist } from '@scure/bip39/wordlists/english.js'
import { POOL_MAX_PER_SENDER, POOL_MAX_TOTAL, RATE_LIMIT_PER_SECOND } from './limits.js'

export type Network = 'mainnet' | 'testnet'

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
  gasLimit: bigint
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
}

export const CHAIN_IDS: Readonly<Record<Network, number>> = { mainnet: 196, testnet: 1952 }

/** anvil's and hardhat's default phrase, so wallets and scripts that know those accounts work unchanged. */
export const DEFAULT_MNEMONIC = 'test test test test test test test test test test test junk'

export const WEI_PER_OKB = 10n ** 18n

/** A setting the service cannot start with; the message names the flag and says what is wrong. */
export class ConfigError extends Error {
  override name = 'ConfigError'
}

const defaults: Omit<Config, 'chainId'> = {
  host: '127.0.0.1',
  port: 8545,
  network: 'mainnet',
  blockTimeMs: 1000,
  flashblockIntervalMs: 200,
  gasLimit: 30_000_000n,
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
}

/** The defaults with the given settings on top; the chain id follows the network unless given. */
export function defaultConfig(overrides: Partial<Config> = {}): Config {
  const given = Object.fromEntries(Object.entries(overrides).filter(([, value]) => value !== undefined)) as Partial<Config>
  const network = given.network ?? defaults.network
  return { ...defaults, chainId: CHAIN_IDS[network] ?? CHAIN_IDS.mainnet, ...given, trustedProxies: [...(given.trustedProxies ?? [])] }
}

function fail(message: string): never {
  throw new ConfigError(message)
}

function isIntegerIn(value: number, min: number, max: number): boolean {
  return Number.isInteger(value) && value >= min && value <= max
}

/** True for `10.0.0.0/8`, `::1/128`, or a bare address. */
export function isCidr(text: string): boolean {
  const [address, prefix, ...rest] = text.split('/')
  const family = isIP(address ?? '')
  if (family === 0 || rest.length > 0) return false
  if (prefix === undefined) return true
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128)
}

/** Throws a ConfigError naming the flag of the first unusable setting. */
export function checkConfig(config: Config): Config {
  if (!isIntegerIn(config.port, 0, 65_535)) fail(`--port must be an integer from 0 to 65535, got ${config.port}`)
  if (config.host.trim() === '') fail('--host must not be empty')
  if (!(config.network in CHAIN_IDS)) fail(`--network must be mainnet or testnet, got "${config.network}"`)
  if (!isIntegerIn(config.chainId, 1, Number.MAX_SAFE_INTEGER)) fail(`chain id must be a positive integer, got ${config.chainId}`)
  if (!isIntegerIn(config.blockTimeMs, 10, 3_600_000)) fail(`--block-time must be from 0.01 to 3600 seconds, got ${config.blockTimeMs / 1000}`)
  if (!isIntegerIn(config.flashblockIntervalMs, 10, 3_600_000)) {
    fail(`--flashblock-interval must be an integer from 10 ms, got ${config.flashblockIntervalMs}`)
  }
  if (config.flashblockIntervalMs > config.blockTimeMs) {
    fail(`--flashblock-interval (${config.flashblockIntervalMs} ms) must not exceed the block time (${config.blockTimeMs} ms)`)
  }
  if (config.gasLimit < 21_000n || config.gasLimit > 2n ** 63n - 1n) fail(`--gas-limit must be from 21000 to 2^63-1, got ${config.gasLimit}`)
  if (!validateMnemonic(config.mnemonic.trim().normalize('NFKD'), wordlist)) fail('--mnemonic is not a valid BIP-39 English phrase')
  if (!isIntegerIn(config.accounts, 0, 10_000)) fail(`--accounts must be an integer from 0 to 10000, got ${config.accounts}`)
  if (config.balance < 0n) fail('--balance must not be negative')
  if (!isIntegerIn(config.txpoolMaxPerSender, 1, 1_000_000)) fail(`--txpool-max-per-sender must be an integer from 1, got ${config.txpoolMaxPerSender}`)
  if (!isIntegerIn(config.txpoolMaxTotal, 1, 10_000_000)) fail(`--txpool-max-total must be an integer from 1, got ${config.txpoolMaxTotal}`)
  if (!isIntegerIn(config.rateLimit, 0, 1_000_000_000)) fail(`--rate-limit must be a whole number of requests per second (0 = off), got ${config.rateLimit}`)
  if (config.redisUrl !== undefined && !/^rediss?:\/\/\S+$/.test(config.redisUrl)) {
    fail(`--redis-url must look like redis://host:6379, got "${config.redisUrl}"`)
  }
  for (const proxy of config.trustedProxies) {
    if (!isCidr(proxy)) fail(`--trusted-proxies: "${proxy}" is not an IP address or CIDR range such as 10.0.0.0/8`)
  }
  return config
}

// ---- command line ----

export const HELP = `Usage: npx preconf-rpc [flags]     (in a clone: npm start -- [flags])

Serves the preconf-rpc JSON-RPC endpoints (/ and /flashblocks) over an embedded chain.

Flags:
  -p, --port <n>                 TCP port (default 8545; 0 picks a free one)
      --host <address>           interface to listen on (default 127.0.0.1)
      --network <name>           mainnet (chain id 196) or testnet (chain id 1952) (default mainnet)
      --block-time <seconds>     seal a block this often (default 1)
      --flashblock-interval <ms> publish a preconfirmation increment this often (default 200)
      --gas-limit <gas>          block gas limit (default 30000000)
      --mnemonic <phrase>        BIP-39 phrase of the dev accounts (default: "${DEFAULT_MNEMONIC}")
      --accounts <n>             number of dev accounts (default 10)
      --balance <OKB>            genesis balance of each dev account, in OKB (default 10000)
      --no-dev-accounts          turn eth_sendTransaction and eth_sign off (no keys held)
      --txpool-max-per-sender <n> transactions one sender may hold in the pool (default ${POOL_MAX_PER_SENDER})
      --txpool-max-total <n>     transactions the pool holds in all (default ${POOL_MAX_TOTAL})
      --rate-limit <n>           requests per second per client IP; 0 turns it off (default ${RATE_LIMIT_PER_SECOND})
      --redis-url <url>          share the rate limit between replicas through Redis (redis://host:6379)
      --rate-limit-fail-closed   refuse requests while Redis is unreachable (default: keep serving)
      --trusted-proxies <cidrs>  comma-separated CIDRs whose X-Forwarded-For / X-Real-IP is believed
      --quiet                    print nothing but errors
  -h, --help                     show this text
`

const flags = {
  port: { type: 'string', short: 'p' },
  host: { type: 'string' },
  network: { type: 'string' },
  'block-time': { type: 'string' },
  'flashblock-interval': { type: 'string' },
  'gas-limit': { type: 'string' },
  mnemonic: { type: 'string' },
  accounts: { type: 'string' },
  balance: { type: 'string' },
  'no-dev-accounts': { type: 'boolean' },
  'txpool-max-per-sender': { type: 'string' },
  'txpool-max-total': { type: 'string' },
  'rate-limit': { type: 'string' },
  'redis-url': { type: 'string' },
  'rate-limit-fail-closed': { type: 'boolean' },
  'trusted-proxies': { type: 'string' },
  quiet: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const

export interface CommandLine {
  config: Config
  help: boolean
}

function integer(flag: string, text: string): number {
  if (!/^\d+$/.test(text)) throw new ConfigError(`--${flag} expects a whole number, got "${text}"`)
  return Number(text)
}

function decimal(flag: string, text: string): number {
  if (!/^\d+(\.\d+)?$/.test(text)) throw new ConfigError(`--${flag} expects a number, got "${text}"`)
  return Number(text)
}

function gas(text: string): bigint {
  if (!/^(\d+|0x[0-9a-fA-F]+)$/.test(text)) throw new ConfigError(`--gas-limit expects a whole number, got "${text}"`)
  return BigInt(text)
}

/** `10000`, `0.5` OKB -> wei; more than 18 decimals cannot be represented. */
function okb(text: string): bigint {
  const match = /^(\d+)(?:\.(\d{1,18}))?$/.exec(text)
  if (!match) throw new ConfigError(`--balance expects an amount of OKB such as 10000 or 0.5, got "${text}"`)
  return BigInt(match[1]!) * WEI_PER_OKB + BigInt((match[2] ?? '').padEnd(18, '0'))
}

function network(text: string): Network {
  if (!(text in CHAIN_IDS)) throw new ConfigError(`--network must be mainnet or testnet, got "${text}"`)
  return text as Network
}

/** Rewrites node's parser errors as one short sentence naming the flag. */
function readableParseError(err: unknown): ConfigError {
  const { code, message } = err as { code?: string; message: string }
  const flag = /'(?:-\w, )?(-{1,2}[\w-]+)/.exec(message)?.[1]
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return new ConfigError(`unknown flag ${flag ?? message}`)
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    return flag && /argument missing|ambiguous/.test(message)
      ? new ConfigError(`${flag} needs a value`)
      : new ConfigError(`${flag ?? 'a flag'} does not take a value`)
  }
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') return new ConfigError(`unexpected argument ${/'([^']*)'/.exec(message)?.[1] ?? ''}`.trim())
  return new ConfigError(message)
}

/** Parses the flags; `help` is true when --help was given (the config is then the defaults). */
export function parseCommandLine(argv: string[]): CommandLine {
  let values: Partial<Record<keyof typeof flags, string | boolean>>
  try {
    values = parseFlags({ args: argv, options: flags, strict: true, allowPositionals: false }).values
  } catch (err) {
    throw readableParseError(err)
  }
  if (values.help) return { config: defaultConfig(), help: true }
  const text = (flag: keyof typeof flags) => values[flag] as string | undefined
  const overrides: Partial<Config> = {}
  if (text('port') !== undefined) overrides.port = integer('port', text('port')!)
  if (text('host') !== undefined) overrides.host = text('host')!
  if (text('network') !== undefined) overrides.network = network(text('network')!)
  if (text('block-time') !== undefined) overrides.blockTimeMs = Math.round(decimal('block-time', text('block-time')!) * 1000)
  if (text('flashblock-interval') !== undefined) overrides.flashblockIntervalMs = integer('flashblock-interval', text('flashblock-interval')!)
  if (text('gas-limit') !== undefined) overrides.gasLimit = gas(text('gas-limit')!)
  if (text('mnemonic') !== undefined) overrides.mnemonic = text('mnemonic')!.trim().replace(/\s+/g, ' ')
  if (text('accounts') !== undefined) overrides.accounts = integer('accounts', text('accounts')!)
  if (text('balance') !== undefined) overrides.balance = okb(text('balance')!)
  if (values['no-dev-accounts']) overrides.devAccounts = false
  if (text('txpool-max-per-sender') !== undefined) overrides.txpoolMaxPerSender = integer('txpool-max-per-sender', text('txpool-max-per-sender')!)
  if (text('txpool-max-total') !== undefined) overrides.txpoolMaxTotal = integer('txpool-max-total', text('txpool-max-total')!)
  if (text('rate-limit') !== undefined) overrides.rateLimit = integer('rate-limit', text('rate-limit')!)
  if (text('redis-url') !== undefined) overrides.redisUrl = text('redis-url')!
  if (values['rate-limit-fail-closed']) overrides.rateLimitFailClosed = true
  if (text('trusted-proxies') !== undefined) {
    overrides.trustedProxies = text('trusted-proxies')!.split(',').map((cidr) => cidr.trim()).filter((cidr) => cidr !== '')
  }
  if (values.quiet) overrides.quiet = true
  return { config: checkConfig(defaultConfig(overrides)), help: false }
}

/** The contract's entry: flags -> a checked Config; throws ConfigError for a bad flag. */
export function parseArgs(argv: string[]): Config {
  return parseCommandLine(argv).config
}
