/**
 * What the loop (loop.ts) knows of a code before running it, computed once per code array (the read views
 * hand out one array per contract, as jump-analysis.ts relies on for the shipped interpreter's):
 *
 * - the code padded with 33 zero bytes, so a PUSH cut short by the end reads zeros and the end reads as STOP;
 * - its JUMPDEST map (1 at each JUMPDEST that is an opcode, not inside a PUSH's data);
 * - its basic blocks: runs of opcodes that cost their static gas alone, cannot fail but by gas or stack and
 *   never wait, ended by one opcode that may do any of those (a jump, a memory or state access, a call, GAS,
 *   the end) or by the next JUMPDEST. At each block's first pc: the block's static gas, and the stack depths it
 *   may start on. The loop checks those once per block instead of once per opcode; a block whose check fails
 *   fails the frame at the opcode `firstFailure` finds, as checking per opcode would have.
 */
import type { Compiled } from './block-module.js'
import { fees, limits, needs, STACK_LIMIT } from './shapes.js'

const JUMPDEST = 0x5b
const PUSH1 = 0x60
const PUSH32 = 0x7f
const PADDING = 33
/** Stack depths are below 2^11; the ops of a block (for the clock) are counted up to 2^10 - 1. */
const DEPTH_BITS = 11
const DEPTH_MASK = (1 << DEPTH_BITS) - 1
const OPS_CAP = 1023
/** A minimum depth no stack has: the block always fails its check (it would overflow whatever the depth). */
const NEVER = DEPTH_MASK

/** Entries of a block within one call before its prefix is compiled (compile.ts; newCall; below 2^16). */
export const HOT = 1000

/** A compiled prefix of a block (compile.ts). */
interface Prefix {
  fn: Compiled
  /** The pc after the prefix: where the loop's switch goes on when the function hands back this pc. */
  end: number
}

export interface Program {
  /** The code followed by PADDING zero bytes. */
  readonly code: Uint8Array
  readonly jumps: Uint8Array
  /** At each block's first pc: its static gas. */
  readonly blockGas: Uint32Array
  /** At each block's first pc: the least depth | the greatest depth << 11 | its opcodes (capped) << 22. */
  readonly blockShape: Uint32Array
  /** At each block's first pc: entries left in the current call before its prefix is compiled (compile.ts). */
  readonly hot: Uint16Array
  /** The call `hot` counts in (newCall). */
  call: number
  /** At each block's first pc: its compiled prefix once hot, null when it has none worth compiling. */
  readonly prefixes: (Prefix | null | undefined)[]
}

/** How an opcode that may run inside a block changes the stack's depth; ENDS for the opcodes that end one. */
const ENDS = 127
const inside = new Int8Array(256).fill(ENDS)
const ranges: [number, number, number][] = [
  // [first opcode, last opcode, depth change]
  [0x01, 0x07, -1],
  [0x08, 0x09, -2],
  [0x0b, 0x0b, -1],
  [0x10, 0x14, -1],
  [0x15, 0x15, 0],
  [0x16, 0x18, -1],
  [0x19, 0x19, 0],
  [0x1a, 0x1d, -1],
  [0x30, 0x30, 1],
  [0x32, 0x34, 1],
  [0x35, 0x35, 0],
  [0x36, 0x36, 1],
  [0x38, 0x38, 1],
  [0x3a, 0x3a, 1],
  [0x3d, 0x3d, 1],
  [0x41, 0x46, 1],
  [0x48, 0x48, 1],
  [0x49, 0x49, 0],
  [0x4a, 0x4a, 1],
  [0x50, 0x50, -1],
  [0x58, 0x59, 1],
  [0x5b, 0x5b, 0],
  [0x5c, 0x5c, 0],
  [0x5f, 0x8f, 1],
  [0x90, 0x9f, 0],
]
for (const [first, last, change] of ranges) inside.fill(change, first, last + 1)
/** 1 for the opcodes that run inside a block (the loop runs the commonest itself, the rest through the table). */
export const quiet = Uint8Array.from(inside, (change) => (change === ENDS ? 0 : 1))

const programs = new WeakMap<Uint8Array, Program>()
let calls = 0

/**
 * A call begins: the blocks' entries count from zero again, so a block is compiled when it is hot within
 * one call (a loop), not after many calls ran it a few times each. Compiling a block costs V8 ~5 ms of CPU
 * (its optimising compiler, on the 2-core machine), repaid only over tens of thousands of runs: counted
 * across calls, the aggregate of 100 balanceOf compiled ~40 blocks during its first 20 calls (16-18 ms CPU
 * per call against 7 without them, in bench/interpreter-calls.ts) and was no faster after.
 */
export function newCall(): void {
  calls++
}

export function analyse(code: Uint8Array): Program {
  let program = programs.get(code)
  if (program !== undefined) {
    if (program.call !== calls) {
      program.hot.fill(HOT)
      program.call = calls
    }
    return program
  }
  const padded = new Uint8Array(code.length + PADDING)
  padded.set(code)
  const jumps = new Uint8Array(code.length)
  const blockGas = new Uint32Array(code.length + 1)
  const blockShape = new Uint32Array(code.length + 1)
  for (let pc = 0; pc < code.length; pc++) {
    const op = code[pc]!
    if (op === JUMPDEST) jumps[pc] = 1
    else if (op >= PUSH1 && op <= PUSH32) pc += op - PUSH1 + 1
  }
  for (let start = 0; start <= code.length; ) start = block(padded, code.length, start, blockGas, blockShape)
  const hot = new Uint16Array(code.length + 1).fill(HOT)
  const prefixes = packed<Prefix | null | undefined>(code.length + 1, undefined)
  program = { code: padded, jumps, blockGas, blockShape, hot, call: calls, prefixes }
  programs.set(code, program)
  return program
}

/**
 * An array of `length` items `value` made by pushes: packed, not holey as `new Array(length)` is. Filled up
 * front (an array grown by stores at scattered pcs changes its elements' kind as it grows, and each change
 * deoptimised the loop that reads it), and packed because code V8 optimised to read a holey array depends
 * on no prototype having indexed properties: the service's start-up gives one some (a dependency's), after
 * the interpreter's priming (prime.ts) had the loop optimised, which threw that code away.
 */
export function packed<T>(length: number, value: T): T[] {
  const out: T[] = []
  for (let i = 0; i < length; i++) out.push(value)
  return out
}

/** Writes the block that starts at `start` and returns where the next one starts. */
function block(code: Uint8Array, length: number, start: number, gas: Uint32Array, shape: Uint32Array): number {
  let pc = start
  let sum = 0
  let least = 0
  let most = DEPTH_MASK
  let change = 0
  let ops = 0
  for (;;) {
    const op = pc < length ? code[pc]! : 0
    if (op === JUMPDEST && pc !== start) break
    sum += fees[op]!
    least = Math.max(least, needs[op]! - change)
    most = Math.min(most, limits[op]! - change)
    ops++
    const step = op >= PUSH1 && op <= PUSH32 ? op - PUSH1 + 2 : 1
    pc += step
    if (inside[op] === ENDS) break
    change += inside[op]!
  }
  gas[start] = sum
  const [low, high] = most < 0 || least > STACK_LIMIT ? [NEVER, 0] : [least, most]
  shape[start] = (low | (high << DEPTH_BITS) | (Math.min(ops, OPS_CAP) << (2 * DEPTH_BITS))) >>> 0
  return pc > length ? length + 1 : pc
}

/**
 * The failure of a block whose check failed, starting at `pc` with `depth` items and `gas`: the first
 * opcode's static gas or stack check that fails, as @ethereumjs's runStep would meet it.
 */
export function firstFailure(code: Uint8Array, pc: number, depth: number, gas: number): string {
  for (;;) {
    const op = code[pc]!
    if (gas < fees[op]!) return 'out of gas'
    gas -= fees[op]!
    if (depth < needs[op]!) return 'stack underflow'
    if (depth > limits[op]!) return 'stack overflow'
    if (inside[op] === ENDS) throw new Error(`interpreter: the block at ${pc} passes its own check`)
    depth += inside[op]!
    pc += op >= PUSH1 && op <= PUSH32 ? op - PUSH1 + 2 : 1
  }
}
