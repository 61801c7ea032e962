/**
 * The dev node's block clock, with anvil's rules (anvil/src/eth/backend/time.rs): a block opens at the wall
 * clock plus an offset (evm_increaseTime adds to it), unless evm_setNextBlockTimestamp named its time (then
 * the offset follows from it) or anvil_setBlockTimestampInterval spaces blocks evenly; never before the
 * parent. The simulated L1 origin follows block time (src/opstack/l1-origin.ts), so time travel moves it too.
 */
import { InvalidParamsError } from '../../errors.js'

export class DevClock {
  private offset = 0n
  private next: bigint | undefined
  private interval: bigint | undefined

  constructor(private readonly now: () => bigint = () => BigInt(Math.floor(Date.now() / 1000))) {}

  /** The offset after adding `seconds` (anvil answers evm_increaseTime with it). */
  increase(seconds: bigint): bigint {
    this.offset += seconds
    return this.offset
  }

  /** The next block opens at `timestamp`; refused below the head's, as anvil. */
  setNext(timestamp: bigint, headTimestamp: bigint): void {
    if (timestamp < headTimestamp)
      throw new InvalidParamsError(`Timestamp error: ${timestamp} is lower than previous block's timestamp`)
    this.next = timestamp
  }

  setInterval(seconds: bigint): void {
    this.interval = seconds
  }

  /** false when no interval was set. */
  removeInterval(): boolean {
    const had = this.interval !== undefined
    this.interval = undefined
    return had
  }

  /** The timestamp of a block opening after a parent at `parentTimestamp`; uses up a one-shot next timestamp. */
  take(parentTimestamp: bigint): bigint {
    let timestamp: bigint
    if (this.next !== undefined) {
      timestamp = this.next
      this.next = undefined
      this.offset = timestamp - this.now()
    } else if (this.interval !== undefined) timestamp = parentTimestamp + this.interval
    else timestamp = this.now() + this.offset
    return timestamp > parentTimestamp ? timestamp : parentTimestamp + 1n
  }

  /** After a revert: time continues from the restored head's timestamp, as anvil's TimeManager.reset. */
  resetTo(headTimestamp: bigint): void {
    this.offset = headTimestamp - this.now()
    this.next = undefined
  }

  /** anvil_reset: the wall clock again. */
  clear(): void {
    this.offset = 0n
    this.next = undefined
    this.interval = undefined
  }
}
