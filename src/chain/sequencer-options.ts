/** What a Sequencer is built with: its settings, the dev node's say over the next block, and its hooks. */
import type { BlockParams } from '../evm/flash-builder.js'
import type { BlockRecord, Flashblock, TxRecord } from '../domain/types.js'
import type { L1Settings } from '../opstack/l1-origin.js'

export interface SequencerOptions {
  blockTimeMs: number
  flashblockIntervalMs: number
  coinbase: Uint8Array
  /** Charge OP Stack L1 data and operator fees (read from L1Block) and pay the fee vaults. */
  opFees?: boolean
  /** false: a plain Ethereum chain (--genesis): blocks open without the L1-info deposit. */
  opStack?: boolean
  /** The simulated L1's fee settings the L1-info deposits carry (default DEFAULT_L1_SETTINGS). */
  l1Settings?: L1Settings
  /** The extraData of a block opening at this time (OP Stack: its EIP-1559 parameters); absent = empty. */
  extraData?: (timestamp: bigint) => Uint8Array
  /** Gas the gasless transactions of one block may use (0: no budget); absent = no gasless transactions. */
  gaslessBudget?: bigint
  /** The live state's cache bound (FlashOptions.cachedEntries); absent = LIVE_STATE_CACHED_ENTRIES. */
  liveStateCachedEntries?: number
  log: (message: string) => void
  warn: (message: string) => void
  /** The dev node's say over the next block (its clock, coinbase, gas limit, base fee); default: wall clock. */
  nextBlock?: (parent: BlockRecord) => NextBlockSettings
}

/** What the dev node sets for a block about to open; anything absent follows the parent and the wall clock. */
export interface NextBlockSettings {
  timestamp?: bigint
  coinbase?: Uint8Array
  gasLimit?: bigint
  baseFee?: bigint
}

/** One step of rebuilding an open block: a flashblock of exactly these transactions, or a state edit. */
export type ReplayStep = readonly TxRecord[] | (() => Promise<void>)

export interface SequencerHooks {
  /** Synchronous: the pending store applies it and listeners hear of it before anything else runs. */
  onFlashblock(flashblock: Flashblock): void
  /** Synchronous: the canonical store takes the block before the pending store lets go of it. */
  onSealed(block: BlockRecord): void
  /** Durable storage (--data-dir): awaited before a flashblock or a sealed block is published. */
  journal?: {
    flashblock(flashblock: Flashblock, params: BlockParams): Promise<void>
    sealed(block: BlockRecord): Promise<void>
  }
}
