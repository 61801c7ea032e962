/**
 * One call frame of the interpreter: its stack of limb words (word.ts), memory, gas as a plain number (a
 * call's gas is capped far below 2^53: MAX_GAS) and how it ended. What the whole call shares (state, warm
 * sets, the journal, logs) is the frame's `host` (host.ts).
 */
import type { Program } from './analysis.js'
import type { Host, Touched } from './host.js'
import { giveBackStack, takeStack } from './stack-arena.js'

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
/** Frames are reused: a call takes one per frame and gives it back at the frame's end (a few are kept). */
const frames: Frame[] = []
const KEPT_FRAMES = 16
/** A frame given back keeps its memory's array up to this size (zeroed), so the next one grows into it. */
const KEPT_MEMORY = 64 * 1024

const OUT_OF_GAS = 'out of gas'

export class Frame {
  readonly stack: Uint32Array
  /** The stack's byte address in the WebAssembly kernel's memory, or -1 (stack-arena.ts). */
  readonly base: number
  sp = 0
  pc = 0
  /** Memory: `memWords` words paid for, in an array that may be longer (zero beyond them). */
  mem: Uint8Array = EMPTY
  memWords = 0
  /** The last child call's return data (RETURNDATASIZE, RETURNDATACOPY). */
  returnData: Uint8Array = EMPTY
  /** What RETURN or REVERT handed back. */
  out: Uint8Array = EMPTY
  status: Status = RUNNING
  error: string | undefined = undefined
  host!: Host
  code!: Uint8Array
  /** `code` as the loop runs it (analysis.ts). */
  program!: Program
  /** The account whose storage and balance the frame uses. */
  account!: Touched
  /** Its address. */
  addressBytes!: Uint8Array
  caller!: Uint8Array
  callData!: Uint8Array
  isStatic = false
  depth = 0
  gas = 0
  /** CALLVALUE: a call's outermost frame's value, which DELEGATECALL hands on (a CALL with value falls back). */
  value = 0n

  constructor() {
    const { stack, base } = takeStack(this)
    this.stack = stack
    this.base = base
  }

  /** A frame at its start (from those given back, or a new one). */
  static take(
    host: Host,
    code: Uint8Array,
    program: Program,
    account: Touched,
    caller: Uint8Array,
    callData: Uint8Array,
    isStatic: boolean,
    depth: number,
    gas: number,
    value = 0n,
  ): Frame {
    const f = frames.pop() ?? new Frame()
    f.host = host
    f.code = code
    f.program = program
    f.account = account
    f.addressBytes = account.bytes
    f.caller = caller
    f.callData = callData
    f.isStatic = isStatic
    f.depth = depth
    f.gas = gas
    f.value = value
    return f
  }

  /** Gives the frame back (after its result is read): its memory zeroed, its fields as a new frame's. */
  release(): void {
    if (frames.length >= KEPT_FRAMES) {
      giveBackStack(this, this.base)
      return
    }
    if (this.mem.length > KEPT_MEMORY) this.mem = EMPTY
    else this.mem.fill(0, 0, this.memWords * 32)
    this.sp = 0
    this.pc = 0
    this.memWords = 0
    this.returnData = EMPTY
    this.out = EMPTY
    this.status = RUNNING
    this.error = undefined
    this.callData = EMPTY
    frames.push(this)
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

/**
 * Both ways through `use`, and `fail`, run at load: a heavy call ends out of gas, and code V8 optimised before
 * any frame had run out had no feedback for that path; the first call to end so deoptimised the loop it was
 * inlined in, and the next call paid for compiling the loop again (60-220 ms of CPU on the 2-core machine).
 * V8 gives a function its feedback only after a few calls, hence the repeats.
 */
function prime(): void {
  const f = new Frame()
  for (let i = 0; i < 16; i++) {
    f.gas = 1
    f.use(1)
    f.use(1)
  }
  f.release()
}
prime()

function memoryCost(words: number): number {
  return words * 3 + Math.floor((words * words) / 512)
}

/** Copies `length` bytes of `src` from `from` (zero past its end) into the frame's memory at `to`. */
export function copyIn(f: Frame, src: Uint8Array, from: number, to: number, length: number): void {
  const available = from >= src.length ? 0 : Math.min(length, src.length - from)
  if (available > 0) f.mem.set(src.subarray(from, from + available), to)
  if (available < length) f.mem.fill(0, to + available, to + length)
}
