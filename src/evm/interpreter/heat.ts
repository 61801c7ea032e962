/**
 * The interpreter's arithmetic made hot before a user's call needs it. The priming at load (prime.ts) runs
 * every path once, for feedback; V8 then optimises the loop, but the helpers of DIV, MOD, their signed
 * forms, ADDMOD, MULMOD, EXP and the like run too rarely in ordinary traffic (token reads, transfers) to be
 * optimised, and a quote's or a pricing library's first call ran them in V8's interpreter and had them
 * compiled by TurboFan during the call: on a server that had served other calls for a while, a Uniswap-style
 * quote's first ask cost ~8 ms on the main thread and ~19 ms of all threads, a warm one ~3 (bench/cold-calls.ts
 * --running 20, trace-opt: `significant`, `put`, `take`, `divSmall`, `unsignedDivide` compiled in those calls;
 * the divisions have since moved into the WebAssembly kernel (kernel-ops.ts); dropping 10 of the loop's 14 division
 * passes then changed neither a first quote's nor a first shiftCombinations' CPU beyond the rounds' spread, nor the
 * heating's own, so they stay). SSTOREs of new slots and balanceOf child calls are heated too: a fresh server's
 * first shiftCombinations compiled SSTORE's path (store, write, same, equals, slot, original) during its first
 * calls, and an aggregate's the child calls' (the CALL handler, enter, touch: ~1 000 child frames before V8
 * optimises them, and one balanceOf call a round left them to be compiled during an aggregate's first calls,
 * 64-144 ms of a compiler thread each under load). With 8 child calls and 8 SSTOREs a round, the first three
 * calls' CPU of all threads, shiftCombinations 42-48 → 12-22 ms, aggregate 19-20 → 11-17 (bench/cold-calls.ts,
 * load 8-12, with the dispatcher's warm-up calls of warm-up.ts).
 *
 * `heat` runs a loop of those opcodes on operands of every width (a 256-bit generator's value shifted right by
 * 0-255 bits: divisors of every limb count, zero, one limb, signs either way), with what such a call does
 * around them (slots read into a growing memory, a child call, a new code analysed: sload, keccak256, expand,
 * memoryCost and the like were compiled during a quote's first calls too), in a throwaway frame over
 * prime.ts's own state (nothing of a chain is read), a slice
 * at a time; a caller runs WARM_UP_HEAT_SLICES of them in turns of the event loop nobody else needs (warm-up.ts).
 * Every width runs in every slice, so the feedback V8 has when it optimises a helper holds every shape a
 * call will give it later, and no later call deoptimises it.
 */
import { analyse, newCall } from './analysis.js'
import type { Frame } from './frame.js'
import { assemble, BALANCE_OF, call, READER, runThrowaway } from './prime.js'

/** The generator's multiplier and increment (Knuth's MMIX LCG's, as 256-bit words). */
const A = 0x5851f42d4c957f2dn
const C = 0x14057b7ef767814fn
const push32 = (v: bigint) => [
  0x7f,
  ...Array.from({ length: 32 }, (_, i) => Number((v >> BigInt(8 * (31 - i))) & 0xffn)),
]
const push1 = (n: number) => [0x60, n]
/**
 * Memory: the generator's word x at 0, y at 0x20, the divisor d at 0x40, a free memory pointer at FREE (as
 * Solidity keeps one at 0x40), SCRATCH for hashes' input and a child call's, and from HEAP up the structs read.
 */
const X = 0x00
const Y = 0x20
const D = 0x40
const FREE = 0x60
const SCRATCH = 0x80
const HEAP = 0x100
const load = (at: number) => [...push1(at), 0x51]
/** The right shifts that make the divisors: every limb count, and below one limb (DIV's short path). */
const SHIFTS = [0, 8, 40, 64, 100, 128, 150, 192, 216, 224, 232, 248, 252, 255]
/** Slots read per round, the way a loop over an array of structs reads them (a pool's, at keccak(i)). */
const READS = 16

/**
 * One round: READS slots at keccak256(i) (cold the first time, warm after) each copied into memory at the
 * free pointer, which moves on (memory grows by a struct), a slot nobody read (x's), a child call, then x and
 * y advanced, and for each shift d = x >> shift the opcodes on (x, y, d).
 */
function round(): number[] {
  const out: number[] = []
  for (let i = 0; i < READS; i++) {
    out.push(...push1(i % 8), ...push1(SCRATCH), 0x52, ...push1(0x20), ...push1(SCRATCH), 0x20, 0x54)
    out.push(...load(FREE), 0x80, ...push1(0x60), 0x01, ...push1(FREE), 0x52, 0x52)
  }
  out.push(...load(X), 0x54, 0x50, ...push1(4), 0x35, 0x50)
  // slots nobody wrote written (x's, y's: a state test's or a swap's results), every SSTORE price: a new value,
  // the same again, then cleared (PrimingSource's slot of an even last byte holds a value, of an odd one none)
  for (const at of [X, Y]) {
    out.push(...load(at), ...load(at), 0x55, ...load(at), ...load(at), 0x55, 0x5f, ...load(at), 0x55)
    out.push(...load(at), ...push1(1), 0x01, ...load(at), 0x55)
  }
  // ERC-20 balanceOf by STATICCALL (an aggregator's child frames), of x's holder and y's
  for (const at of [X, Y, X, Y, X, Y, X, Y]) {
    out.push(...BALANCE_OF, ...push1(0xe0), 0x1b, ...push1(SCRATCH), 0x52, ...load(at), ...push1(SCRATCH + 4), 0x52)
    out.push(...call(0xfa, READER, [SCRATCH, 0x24], [SCRATCH, 0x20]), 0x3d, 0x50)
  }
  out.push(...load(X), ...push32(A), 0x02, ...push32(C), 0x01, 0x80, ...push1(X), 0x52)
  out.push(...load(X), ...push32(C), 0x02, ...push32(A), 0x18, ...push1(Y), 0x52)
  for (const [k, shift] of SHIFTS.entries()) {
    out.push(...load(X), ...push1(shift), 0x1c, ...push1(D), 0x52)
    // y / d and d / y (a divisor above the dividend), both unsigned and signed, quotient and remainder
    for (const op of [0x04, 0x05, 0x06, 0x07])
      out.push(...load(D), ...load(Y), op, 0x50, ...load(Y), ...load(D), op, 0x50)
    // (x + y) mod d and x × y mod d; x × y mod 2^256 - 1 (mulDiv's first step)
    for (const op of [0x08, 0x09]) out.push(...load(D), ...load(Y), ...load(X), op, 0x50)
    out.push(0x5f, 0x19, ...load(Y), ...load(X), 0x09, 0x50)
    out.push(...load(Y), ...load(D), 0x02, 0x50)
    out.push(...load(Y), ...push1(shift), 0x1d, 0x50) // SAR
    out.push(...load(D), ...load(Y), 0x12, 0x50, ...load(D), ...load(Y), 0x13, 0x50) // SLT, SGT (signed bounds)
    out.push(...load(Y), ...push1(k * 2), 0x0b, 0x50, ...load(Y), ...push1(k * 2), 0x1a, 0x50) // SIGNEXTEND, BYTE
    // EXP: an exponent of 1-32 bytes, of one byte, and a power of two
    if (k % 3 === 0) out.push(...load(D), ...load(X), 0x0a, 0x50)
    out.push(...push1(shift), ...load(X), 0x0a, 0x50, ...push1(shift), ...push1(2), 0x0a, 0x50)
  }
  return out
}

/** The rounds in a loop until the gas is gone. */
const code = assemble([
  ...[0x61, HEAP >> 8, HEAP & 0xff, ...push1(FREE), 0x52],
  ...[{ at: 'loop' }, 0x5b, ...round(), { to: 'loop' }, 0x56],
])

/** A slice's gas: a few rounds (~2-4 ms on the loaded 2-core machine), so a request never waits long behind one. */
const SLICE_GAS = 480_000

/**
 * A contract's code is analysed once (analysis.ts), when it is first called: those functions never get hot
 * either, and a first call paid ~0.4 ms for 2.2 KB of code where optimised code takes ~0.05 (and ~6 ms at
 * the process's first). Each slice analyses copies of the loop's code too.
 */
const ANALYSES = 2

/** One slice of the loop; `run` runs a frame to its end (run.ts). */
export function heat(run: (f: Frame) => void | Promise<void>): void {
  for (let i = 0; i < ANALYSES; i++) analyse(code.slice())
  // a call of its own: the loop's blocks count their entries from zero and none gets compiled (compile.ts)
  newCall()
  const error = runThrowaway(run, code, SLICE_GAS)
  if (error !== 'out of gas') throw new Error(`interpreter: the heating loop ended with ${error}`)
}
