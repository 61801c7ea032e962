/** What createChain takes: the chain's part of the service Config, and what only tests and benches choose. */
import type { Config } from '../config.js'
import type { ChainLogger } from './logger.js'

/**
 * The chain's part of the service Config, complete (defaultConfig in src/config.ts holds the defaults),
 * plus what only tests choose: a logger, the genesis base fee and the genesis time.
 */
export type ChainOptions = Pick<
  Config,
  | 'chainId'
  | 'gasLimit'
  | 'blockTimeMs'
  | 'flashblockIntervalMs'
  | 'mnemonic'
  | 'accounts'
  | 'balance'
  | 'txpoolMaxPerSender'
  | 'txpoolMaxTotal'
  | 'quiet'
  | 'dumpState'
  | 'loadState'
  | 'history'
> &
  Partial<
    Pick<
      Config,
      | 'opFees'
      | 'l1Settings'
      | 'genesis'
      | 'importFile'
      | 'network'
      | 'eip1559Denominator'
      | 'eip1559Elasticity'
      | 'minBaseFee'
      | 'gaslessBlockGasLimit'
      | 'gaslessTargets'
      | 'forkUrl'
      | 'forkBlockNumber'
      | 'evmTimeoutMs'
    >
  > & {
    logger?: ChainLogger
    /** The genesis base fee; default the network's (X Layer's genesis base fee). */
    baseFee?: bigint
    /** Genesis time in seconds (default: now). */
    genesisTimestamp?: bigint
    /** --data-dir: keep the chain in this directory (src/chain/persist/); absent = in memory only. */
    dataDir?: string
    /** The sequencer's state caches' bound (default LIVE_STATE_CACHED_ENTRIES): a test's small one. */
    liveStateCachedEntries?: number
    /**
     * Whether the sequencer's transactions and deposits run their outermost frames on the EVM interpreter
     * (default: unless PRECONF_EVM_INTERPRETER=0): a test's chain on @ethereumjs alone.
     */
    evmInterpreter?: boolean
  }
