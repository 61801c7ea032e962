/**
 * What the dev node says about the next block to open: its time (the clock), and the one-shot overrides
 * of evm_setBlockGasLimit and anvil_setNextBlockBaseFeePerGas (the blocks after it inherit the gas limit
 * and derive their base fee from it, as on anvil), and the coinbase of anvil_setCoinbase, which stays.
 */
import type { BlockRecord } from '../../domain/types.js'
import type { NextBlockSettings } from '../sequencer.js'
import { DevClock } from './clock.js'

export class NextBlock {
  readonly clock = new DevClock()
  coinbase: Uint8Array | undefined
  gasLimit: bigint | undefined
  baseFee: bigint | undefined

  /** The settings of the block opening on `parent`; the one-shot ones are used up. */
  take(parent: BlockRecord): NextBlockSettings {
    const settings: NextBlockSettings = {
      timestamp: this.clock.take(parent.header.timestamp),
      ...(this.coinbase ? { coinbase: this.coinbase } : {}),
      ...(this.gasLimit !== undefined ? { gasLimit: this.gasLimit } : {}),
      ...(this.baseFee !== undefined ? { baseFee: this.baseFee } : {}),
    }
    this.gasLimit = undefined
    this.baseFee = undefined
    return settings
  }

  /** anvil_reset: the node's own settings again. */
  clear(): void {
    this.clock.clear()
    this.coinbase = undefined
    this.gasLimit = undefined
    this.baseFee = undefined
  }
}
