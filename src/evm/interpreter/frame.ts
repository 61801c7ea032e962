/**
 * One call frame of the interpreter: its stack of limb words (word.ts), memory, gas as a plain number (a
 * call's gas is capped far below 2^53: MAX_GAS) and how it ended. What the whole call shares (state, warm
 * sets, the journal, logs) is the frame's `host` (host.ts).
 */
import type { Program } from './analysis.js'
import type { Host } from './host.js'
import { STACK_LIMIT } from './shapes.js'

/** The most gas a call the interpreter takes may carry: memory costs then stay exact in doubles. */
export const MAX_GAS = 1e10
/** Memory beyond this many words costs more than MAX_GAS (3w + w²/512). */
const MAX_WORDS = 1 << 22

export const RUNNING = 0
export const RETURNED = 1
export const REVERTED = 2
export const FAILED = 3
export type Status = typeof RUNNING | typeof RETURNED | typeof REVERTED | typeof FAILED

const EMPTY = new Uint8Array(0)
/** Stacks are reused: a frame takes one at entry and gives it back at its end (32 KB each; a few are kept). */
const stacks: Uint32Array[] = []
const KEPT_STACKS = 16

const OUT_OF_GAS = 'out of gas'

export class Frame {
  readonly stack: Uint32Array
  sp = 0
  pc = 0
  mem: Uint8Array = EMPTY
  memWords = 0
  /** The last child call's return data (RETURNDATASIZE, RETURNDATACOPY). */
  returnData: Uint8Array = EMPTY
  /** What RETURN or REVERT handed back. */
  out: Uint8Array = EMPTY
  status: Status = RUNNING
  error: string | undefined

  constructor(
    readonly host: Host,
    readonly code: Uint8Array,
    /** `code` as the loop runs it (analysis.ts). */
    readonly program: Program,
    /** The account whose storage and balance the frame uses (unprefixed hex key and bytes). */
    readonly address: string,
    readonly addressBytes: Uint8Array,
    readonly caller: Uint8Array,
    readonly callData: Uint8Array,
    readonly isStatic: boolean,
    readonly depth: number,
    public gas: number,
  ) {
    this.stack = stacks.pop() ?? new Uint32Array(STACK_LIMIT * 8)
  }

  /** Gives the stack back (after the frame's result is read). */
  release(): void {
    if (stacks.length < KEPT_STACKS) stacks.push(this.stack)
  }

  fail(error: string): void {
    this.status = FAILED
    this.error = error
    this.gas = 0
  }

  /** Takes `n` gas, or fails the frame out of gas (false). */
  use(n: number): boolean {
    if (this.gas < n) {
      this.fail(OUT_OF_GAS)
      return false
    }
    this.gas -= n
    return true
  }

  /**
   * Charges and makes the memory `[offset, offset + length)` (numbers from `saturated`); a zero length
   * touches nothing. False when the frame failed out of gas.
   */
  expand(offset: number, length: number): boolean {
    if (length === 0) return true
    const end = offset + length
    const words = Math.ceil(end / 32)
    if (words <= this.memWords) return true
    if (words > MAX_WORDS) {
      this.fail(OUT_OF_GAS)
      return false
    }
    const cost = memoryCost(words) - memoryCost(this.memWords)
    if (!this.use(cost)) return false
    this.memWords = words
    const size = words * 32
    if (size > this.mem.length) {
      const grown = new Uint8Array(Math.max(size, Math.min(this.mem.length * 2, MAX_WORDS * 32)))
      grown.set(this.mem)
      this.mem = grown
    }
    return true
  }

  /** A copy of memory `[offset, offset + length)`, already expanded. */
  read(offset: number, length: number): Uint8Array {
    return length === 0 ? EMPTY : this.mem.slice(offset, offset + length)
  }
}

function memoryCost(words: number): number {
  return words * 3 + Math.floor((words * words) / 512)
}

/** Copies `length` bytes of `src` from `from` (zero past its end) into the frame's memory at `to`. */
export function copyIn(f: Frame, src: Uint8Array, from: number, to: number, length: number): void {
  const available = from >= src.length ? 0 : Math.min(length, src.length - from)
  if (available > 0) f.mem.set(src.subarray(from, from + available), to)
  if (available < length) f.mem.fill(0, to + available, to + length)
}
