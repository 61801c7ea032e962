/**
 * The service's defaults, the only ones: checkConfig fills them in (through defaultConfig) and --help quotes
 * them. A setting not given takes its default; the chain id and chain parameters follow the network unless
 * given; whether the dev methods are served follows the host unless given.
 */
import { DEFAULT_L1_SETTINGS } from '../opstack/l1-origin.js'
import { NETWORKS } from '../opstack/networks.js'
import {
  FLASHBLOCKS_IDLE_TIMEOUT_MS,
  FOLLOWER_CACHE_BLOCKS,
  GASLESS_BLOCK_GAS_LIMIT,
  POOL_MAX_PER_SENDER,
  POOL_MAX_TOTAL,
  RATE_LIMIT_PER_SECOND,
  SEND_SYNC_MAX_TIMEOUT_MS,
  CALL_TIMEOUT_MS,
  UPSTREAM_CALL_TIMEOUT_MS,
} from '../limits.js'
import type { Config, Network } from './settings.js'

export const CHAIN_IDS: Readonly<Record<Network, number>> = {
  mainnet: NETWORKS.mainnet.chainId,
  testnet: NETWORKS.testnet.chainId,
}

/** anvil's and hardhat's default phrase, so wallets and scripts that know those accounts work unchanged. */
export const DEFAULT_MNEMONIC = 'test test test test test test test test test test test junk'

export const WEI_PER_OKB = 10n ** 18n

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
  upstreamTimeoutMs: UPSTREAM_CALL_TIMEOUT_MS,
  followerCacheBlocks: FOLLOWER_CACHE_BLOCKS,
  opFees: true,
  l1Settings: DEFAULT_L1_SETTINGS,
  mining: true,
  feedDialect: 'xlayer',
  sendSyncTimeoutMs: SEND_SYNC_MAX_TIMEOUT_MS,
  evmTimeoutMs: CALL_TIMEOUT_MS,
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
