/**
 * The command line: flags -> a checked Config (through config.ts's defaults and checks), node's parser
 * errors rewritten as one sentence naming the flag, and --help written from the same defaults.
 */
import { parseArgs as parseFlags } from 'node:util'
import { hexToBytes } from '@ethereumjs/util'
import {
  CHAIN_IDS,
  CONFIG_DEFAULTS,
  ConfigError,
  WEI_PER_OKB,
  checkConfig,
  defaultConfig,
  type Config,
  type FeedDialect,
  type GaslessTarget,
  type Network,
  networkDefaults,
} from './config.js'
import { GASLESS_MAX_GAS_LIMIT } from './limits.js'
import type { L1Settings } from './opstack/l1-origin.js'

const d = CONFIG_DEFAULTS
const mainnet = networkDefaults('mainnet')
const testnet = networkDefaults('testnet')

export const HELP = `Usage: npx preconf-rpc [flags]     (in a clone: npm start -- [flags])

Serves the preconf-rpc JSON-RPC endpoints (/ and /flashblocks) over an embedded chain.

Flags:
  -p, --port <n>                 TCP port (default ${d.port}; 0 picks a free one)
      --host <address>           interface to listen on (default ${d.host})
      --network <name>           mainnet (chain id ${CHAIN_IDS.mainnet}) or testnet (chain id ${CHAIN_IDS.testnet}) (default ${d.network});
                                 brings X Layer's gas limit, genesis base fee and EIP-1559 parameters
      --block-time <seconds>     seal a block this often (default ${d.blockTimeMs / 1000})
      --flashblock-interval <ms> publish a preconfirmation increment this often (default ${d.flashblockIntervalMs})
      --gas-limit <gas>          block gas limit (default ${mainnet.gasLimit} on mainnet, ${testnet.gasLimit} on testnet)
      --eip1559-denominator <n>  base fee change denominator every block's extraData carries (default ${mainnet.eip1559Denominator})
      --eip1559-elasticity <n>   gas limit / gas target, carried in extraData (default ${mainnet.eip1559Elasticity})
      --min-base-fee <wei>       Jovian: the next base fee never goes below this (default ${d.minBaseFee})
      --gasless-block-gas-limit <gas> gas the gasless (zero-priced, whitelisted) transactions of one block may
                                 use; 0 = no budget (default ${d.gaslessBlockGasLimit}, as xlayer-reth)
      --gasless-targets <list>   address[:gas],... calls to these are gasless for any sender: the gasless
                                 whitelist predeploy starts with them (gas: the most one call may ask for,
                                 default ${GASLESS_MAX_GAS_LIMIT})
      --mnemonic <phrase>        BIP-39 phrase of the dev accounts (default: "${d.mnemonic}")
      --accounts <n>             number of dev accounts (default ${d.accounts})
      --balance <OKB>            genesis balance of each dev account, in OKB (default ${d.balance / WEI_PER_OKB})
      --no-dev-accounts          turn eth_sendTransaction and eth_sign off (no keys held)
      --txpool-max-per-sender <n> transactions one sender may hold in the pool (default ${d.txpoolMaxPerSender})
      --txpool-max-total <n>     transactions the pool holds in all (default ${d.txpoolMaxTotal})
      --rate-limit <n>           requests per second per client IP; 0 turns it off (default ${d.rateLimit})
      --redis-url <url>          share the rate limit and polling filters between replicas through Redis (redis://host:6379)
      --rate-limit-fail-closed   refuse requests while Redis is unreachable (default: keep serving)
      --trusted-proxies <cidrs>  comma-separated CIDRs whose X-Forwarded-For / X-Real-IP is believed
      --data-dir <dir>           keep the chain (blocks, state, preconfirmations, pool) in this directory
                                 and continue it after a restart (default: in memory, lost at exit)
      --dump-state <file>        at exit, write the head's accounts, code and storage to this JSON file
                                 (anvil's --dump-state format)
      --load-state <file>        start a fresh chain with the accounts of such a file (ours or anvil's)
      --history <n>              with --data-dir: keep the state of the last n blocks only; older state
                                 reads get "missing trie node" (default: keep all; blocks are always kept)
      --no-op-fees               OP Stack: charge gas only (default: user transactions also pay the L1 data
                                 fee and the operator fee into the fee vaults)
      --l1-base-fee <wei>        simulated L1 base fee in L1-info deposits (default ${d.l1Settings.l1BaseFee})
      --l1-blob-base-fee <wei>   simulated L1 blob base fee (default ${d.l1Settings.blobBaseFee})
      --l1-fee-scalar <n>        L1 base fee scalar (default ${d.l1Settings.baseFeeScalar})
      --l1-blob-fee-scalar <n>   L1 blob base fee scalar (default ${d.l1Settings.blobBaseFeeScalar})
      --operator-fee-scalar <n>  operator fee scalar, 1e-6 units per gas (default ${d.l1Settings.operatorFeeScalar})
      --operator-fee-constant <wei> operator fee per transaction (default ${d.l1Settings.operatorFeeConstant})
      --genesis <file>           start from a geth genesis.json (any chain id and fork schedule; plain
                                 Ethereum rules, no OP Stack deposits or fees) instead of the dev genesis
      --import <file>            execute these RLP blocks (as \`geth import\`) on top of --genesis at start
      --no-mining                build no blocks: the head stays the last imported block
      --no-dev-methods           turn the dev-node methods off (anvil_*, evm_*, hardhat_*: state edits,
                                 snapshots, time travel, impersonation; default: on when --host is loopback)
      --dev-methods              serve the dev-node methods on a non-loopback --host too (anyone who reaches
                                 the port can then change the chain's state without a key)
      --da-footprint-gas-scalar <n> Jovian DA footprint gas per estimated byte; a block's footprint may not
                                 pass its gas limit (default ${d.l1Settings.daFootprintGasScalar}; 0 means that default)
      --feed-dialect <name>      how /ws/flashblocks writes flashblocks: xlayer (target_index, an end-of-block
                                 message) or base (neither; receipts tagged by type) (default ${d.feedDialect})
      --rpc.send-raw-transaction-sync-timeout <duration> longest eth_sendRawTransactionSync wait; a requested
                                 timeout is clamped to it (6s, 500ms, or seconds; default ${d.sendSyncTimeoutMs / 1000}s)
      --quiet                    print nothing but errors

Fork mode (the embedded chain starts on another node's state, as anvil --fork-url):
      --fork-url <url>           HTTP JSON-RPC of the node to fork; its chain id, blocks and state up to the fork block
      --fork-block-number <n>    the block to fork at (default: the node's latest)

Follower mode (serve an upstream node and its flashblocks feed instead of the embedded chain):
      --upstream <url>           HTTP JSON-RPC of the upstream node; chain id and blocks come from it
      --upstream-feed <url>      its raw flashblocks feed (ws://.../ws/flashblocks); without it pending = latest
      --sequencer <url>          where eth_sendRawTransaction is forwarded (default: --upstream)
      --flashblocks-idle-timeout <ms> feed silence that drops pending (default ${d.flashblocksIdleTimeoutMs})
      --follower-cache-blocks <n> recent blocks kept in full; older ones are read upstream (default ${d.followerCacheBlocks})
  -h, --help                     show this text
`

const flags = {
  port: { type: 'string', short: 'p' },
  host: { type: 'string' },
  network: { type: 'string' },
  'block-time': { type: 'string' },
  'flashblock-interval': { type: 'string' },
  'gas-limit': { type: 'string' },
  'eip1559-denominator': { type: 'string' },
  'eip1559-elasticity': { type: 'string' },
  'min-base-fee': { type: 'string' },
  'gasless-block-gas-limit': { type: 'string' },
  'gasless-targets': { type: 'string' },
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
  'data-dir': { type: 'string' },
  'dump-state': { type: 'string' },
  'load-state': { type: 'string' },
  history: { type: 'string' },
  quiet: { type: 'boolean' },
  upstream: { type: 'string' },
  'upstream-feed': { type: 'string' },
  sequencer: { type: 'string' },
  'flashblocks-idle-timeout': { type: 'string' },
  'follower-cache-blocks': { type: 'string' },
  'no-op-fees': { type: 'boolean' },
  'l1-base-fee': { type: 'string' },
  'l1-blob-base-fee': { type: 'string' },
  'l1-fee-scalar': { type: 'string' },
  'l1-blob-fee-scalar': { type: 'string' },
  'operator-fee-scalar': { type: 'string' },
  'operator-fee-constant': { type: 'string' },
  genesis: { type: 'string' },
  import: { type: 'string' },
  'no-mining': { type: 'boolean' },
  'no-dev-methods': { type: 'boolean' },
  'dev-methods': { type: 'boolean' },
  'da-footprint-gas-scalar': { type: 'string' },
  'feed-dialect': { type: 'string' },
  'rpc.send-raw-transaction-sync-timeout': { type: 'string' },
  'fork-url': { type: 'string' },
  'fork-block-number': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const

/** Flags of the embedded chain that a follower refuses (--no-dev-accounts is accepted: a follower holds no keys anyway). */
const CHAIN_FLAGS = [
  'network',
  'block-time',
  'flashblock-interval',
  'gas-limit',
  'eip1559-denominator',
  'eip1559-elasticity',
  'min-base-fee',
  'gasless-block-gas-limit',
  'gasless-targets',
  'mnemonic',
  'accounts',
  'balance',
  'txpool-max-per-sender',
  'txpool-max-total',
  'genesis',
  'import',
  'no-mining',
  'dump-state',
  'load-state',
  'history',
] as const

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

function wholeNumber(flag: string, text: string): bigint {
  if (!/^(\d+|0x[0-9a-fA-F]+)$/.test(text)) throw new ConfigError(`--${flag} expects a whole number, got "${text}"`)
  return BigInt(text)
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

/** reth's duration flags (parse_duration_from_secs_or_ms): `6s`, `500ms`, or a number of seconds -> ms. */
function duration(flag: string, text: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s)?$/.exec(text)
  if (!match) throw new ConfigError(`--${flag} expects a duration such as 6s or 500ms, got "${text}"`)
  return Math.round(Number(match[1]) * (match[2] === 'ms' ? 1 : 1000))
}

/** `0xabc…[:gas],…` -> whitelist targets (gas defaults to the whitelist's cap). */
function gaslessTargets(text: string): GaslessTarget[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')
    .map((item) => {
      const match = /^(0x[0-9a-fA-F]{40})(?::(\d+|0x[0-9a-fA-F]+))?$/.exec(item)
      if (!match) throw new ConfigError(`--gasless-targets expects address[:gas],..., got "${item}"`)
      return { address: hexToBytes(match[1] as `0x${string}`), gasLimit: BigInt(match[2] ?? GASLESS_MAX_GAS_LIMIT) }
    })
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
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL')
    return new ConfigError(`unexpected argument ${/'([^']*)'/.exec(message)?.[1] ?? ''}`.trim())
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
  if (text('block-time') !== undefined)
    overrides.blockTimeMs = Math.round(decimal('block-time', text('block-time')!) * 1000)
  if (text('flashblock-interval') !== undefined)
    overrides.flashblockIntervalMs = integer('flashblock-interval', text('flashblock-interval')!)
  if (text('gas-limit') !== undefined) overrides.gasLimit = gas(text('gas-limit')!)
  const bigFlags = {
    'eip1559-denominator': 'eip1559Denominator',
    'eip1559-elasticity': 'eip1559Elasticity',
    'min-base-fee': 'minBaseFee',
    'gasless-block-gas-limit': 'gaslessBlockGasLimit',
  } as const
  for (const [flag, field] of Object.entries(bigFlags)) {
    const value = text(flag as keyof typeof flags)
    if (value !== undefined) overrides[field] = wholeNumber(flag, value)
  }
  if (text('gasless-targets') !== undefined) overrides.gaslessTargets = gaslessTargets(text('gasless-targets')!)
  if (text('mnemonic') !== undefined) overrides.mnemonic = text('mnemonic')!.trim().replace(/\s+/g, ' ')
  if (text('accounts') !== undefined) overrides.accounts = integer('accounts', text('accounts')!)
  if (text('balance') !== undefined) overrides.balance = okb(text('balance')!)
  if (values['no-dev-accounts']) overrides.devAccounts = false
  if (text('txpool-max-per-sender') !== undefined)
    overrides.txpoolMaxPerSender = integer('txpool-max-per-sender', text('txpool-max-per-sender')!)
  if (text('txpool-max-total') !== undefined)
    overrides.txpoolMaxTotal = integer('txpool-max-total', text('txpool-max-total')!)
  if (text('rate-limit') !== undefined) overrides.rateLimit = integer('rate-limit', text('rate-limit')!)
  if (text('redis-url') !== undefined) overrides.redisUrl = text('redis-url')!
  if (values['rate-limit-fail-closed']) overrides.rateLimitFailClosed = true
  if (text('trusted-proxies') !== undefined) {
    overrides.trustedProxies = text('trusted-proxies')!
      .split(',')
      .map((cidr) => cidr.trim())
      .filter((cidr) => cidr !== '')
  }
  if (text('data-dir') !== undefined) overrides.dataDir = text('data-dir')!
  if (text('dump-state') !== undefined) overrides.dumpState = text('dump-state')!
  if (text('load-state') !== undefined) overrides.loadState = text('load-state')!
  if (text('history') !== undefined) {
    overrides.history = integer('history', text('history')!)
    if (overrides.history < 1) throw new ConfigError('--history expects at least 1 block')
    if (overrides.dataDir === undefined) throw new ConfigError('--history prunes a --data-dir; give one')
  }
  if (values.quiet) overrides.quiet = true
  if (text('genesis') !== undefined) overrides.genesis = text('genesis')!
  if (text('import') !== undefined) overrides.importFile = text('import')!
  if (values['no-mining']) overrides.mining = false
  if (text('fork-url') !== undefined) overrides.forkUrl = text('fork-url')!
  if (text('fork-block-number') !== undefined)
    overrides.forkBlockNumber = BigInt(integer('fork-block-number', text('fork-block-number')!))
  if (values['dev-methods'] && values['no-dev-methods'])
    throw new ConfigError('--dev-methods and --no-dev-methods contradict each other; give one')
  if (values['dev-methods']) overrides.devMethods = true
  if (values['no-dev-methods']) overrides.devMethods = false
  if (text('upstream') !== undefined) {
    const chainFlag = CHAIN_FLAGS.find((flag) => values[flag] !== undefined)
    if (chainFlag)
      throw new ConfigError(
        `--${chainFlag} does not apply in follower mode (--upstream): the chain, its blocks and accounts are the upstream's`,
      )
    overrides.upstream = text('upstream')!
  }
  if (text('upstream-feed') !== undefined) overrides.upstreamFeed = text('upstream-feed')!
  if (text('sequencer') !== undefined) overrides.sequencer = text('sequencer')!
  if (text('flashblocks-idle-timeout') !== undefined)
    overrides.flashblocksIdleTimeoutMs = integer('flashblocks-idle-timeout', text('flashblocks-idle-timeout')!)
  if (text('follower-cache-blocks') !== undefined)
    overrides.followerCacheBlocks = integer('follower-cache-blocks', text('follower-cache-blocks')!)
  if (text('feed-dialect') !== undefined) overrides.feedDialect = text('feed-dialect') as FeedDialect
  const syncTimeout = text('rpc.send-raw-transaction-sync-timeout')
  if (syncTimeout !== undefined)
    overrides.sendSyncTimeoutMs = duration('rpc.send-raw-transaction-sync-timeout', syncTimeout)
  if (values['no-op-fees']) overrides.opFees = false
  const l1: Partial<L1Settings> = {}
  const l1Flags = {
    'l1-base-fee': 'l1BaseFee',
    'l1-blob-base-fee': 'blobBaseFee',
    'l1-fee-scalar': 'baseFeeScalar',
    'l1-blob-fee-scalar': 'blobBaseFeeScalar',
    'operator-fee-scalar': 'operatorFeeScalar',
    'operator-fee-constant': 'operatorFeeConstant',
    'da-footprint-gas-scalar': 'daFootprintGasScalar',
  } as const
  for (const [flag, field] of Object.entries(l1Flags)) {
    const value = text(flag as keyof typeof flags)
    if (value !== undefined) l1[field] = wholeNumber(flag, value)
  }
  if (Object.keys(l1).length) overrides.l1Settings = { ...d.l1Settings, ...l1 }
  return { config: checkConfig(defaultConfig(overrides)), help: false }
}

/** The contract's entry: flags -> a checked Config; throws ConfigError for a bad flag. */
export function parseArgs(argv: string[]): Config {
  return parseCommandLine(argv).config
}
