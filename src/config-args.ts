/**
 * Command-line flags -> Config. Unknown flags, missing values and unusable values all become one
 * ConfigError sentence (the CLI prints it and exits 2) instead of node's parser wording.
 */
import { parseArgs as parseFlags } from 'node:util'
import { CHAIN_IDS, ConfigError, DEFAULT_MNEMONIC, WEI_PER_OKB, checkConfig, defaultConfig, type Config, type Network } from './config.js'
import { RATE_LIMIT_PER_SECOND } from './limits.js'

export const HELP = `Usage: npm start -- [flags]     (or: tsx src/cli.ts [flags])

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
      --rate-limit <n>           requests per second per client IP; 0 turns it off (default ${RATE_LIMIT_PER_SECOND})
      --redis-url <url>          share the rate limit between replicas through Redis (redis://host:6379)
      --rate-limit-fail-closed   refuse requests while Redis is unreachable (default: keep serving)
      --trusted-proxies <cidrs>  comma-separated CIDRs whose X-Forwarded-For is believed
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
  const flag = /'(-{1,2}[\w-]+)/.exec(message)?.[1]
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
