/**
 * Arithmetic, comparison and bitwise opcodes on limb words in place (word.ts): the top of the stack is at
 * (sp - 1) * 8; a binary opcode writes its result over its second operand. Signed division, ADDMOD, MULMOD
 * and division by a divisor above 32 bits go through BigInt: V8's, conversions included, measured faster
 * than Knuth's algorithm D on 16-bit digits in doubles (MULMOD 3.0-3.9 against 5.0 µs, a division by 1e18
 * 1.0-1.8 against 1.4-1.7 µs on the loaded 2-core machine). Gas and stack depth are checked
 * by the loop (run.ts) before a handler runs, except EXP's per-byte charge.
 */
import type { Frame } from './frame.js'
import { limbs as k, mulAt, SLOT, sqrAt } from './kernel.js'
import * as w from './word.js'

type Handler = (f: Frame) => void
const EXP_BYTE_GAS = 50
const NEG_ONE = 0xffffffff

function viaBigInt(op: (a: bigint, b: bigint) => bigint): Handler {
  return (f) => {
    const t = (f.sp - 1) * 8
    const s = f.stack
    w.fromBigInt(s, t - 8, op(w.toBigInt(s, t), w.toBigInt(s, t - 8)))
    f.sp--
  }
}

const signed = (x: bigint) => BigInt.asIntN(256, x)

function divide(f: Frame, keep: 'quotient' | 'remainder'): void {
  const t = (f.sp - 1) * 8
  const s = f.stack
  f.sp--
  const r = t - 8
  if (w.isZero(s, r)) return // x / 0 = x % 0 = 0, and the divisor's slot already holds 0
  const d = w.small(s, r)
  if (d !== -1) {
    const rem = w.divSmall(s, t, d, r)
    if (keep === 'remainder') w.setSmall(s, r, rem)
    return
  }
  if (w.cmp(s, t, r) < 0) {
    if (keep === 'quotient') w.setSmall(s, r, 0)
    else w.copy(s, t, r)
    return
  }
  // V8's BigInt division, conversions included, measured faster than algorithm D in doubles
  const a = w.toBigInt(s, t)
  const b = w.toBigInt(s, r)
  w.fromBigInt(s, r, keep === 'quotient' ? a / b : a % b)
}

function modular(op: (a: bigint, b: bigint) => bigint): Handler {
  return (f) => {
    const t = (f.sp - 1) * 8
    const s = f.stack
    f.sp -= 2
    if (w.isZero(s, t - 16)) return
    w.fromBigInt(s, t - 16, op(w.toBigInt(s, t), w.toBigInt(s, t - 8)) % w.toBigInt(s, t - 16))
  }
}

function exp(f: Frame): void {
  const t = (f.sp - 1) * 8
  const s = f.stack
  const e = t - 8
  const bytes = w.byteLength(s, e)
  if (!f.use(10 + EXP_BYTE_GAS * bytes)) return
  f.sp--
  if (bytes === 0) w.setSmall(s, e, 1)
  else if (w.small(s, t) === 2) {
    const n = w.small(s, e)
    if (n === -1 || n >= 256) w.setSmall(s, e, 0)
    else {
      w.setSmall(s, t, 1)
      w.shl(s, t, n, e)
    }
  } else power(s, t, e, bytes)
}

/** The kernel's slots EXP uses: the result, and from POWERS + 1 the base's powers 1..15. */
const RESULT = 16
const POWERS = 16

/**
 * The word at `e` becomes (word at `t`) ** (word at `e`) mod 2^256, `bytes` the exponent's length: left to
 * right over the exponent's bits read from its limbs, four at a time against a table of the base's first 15
 * powers when the exponent is longer than two bytes (one at a time below, where the table costs more than
 * it saves), the squares and products in the WebAssembly kernel's slots (kernel.ts).
 */
function power(s: Uint32Array, t: number, e: number, bytes: number): void {
  const width = bytes > 2 ? 4 : 1
  const r = RESULT * SLOT
  // the power d of the base at slot POWERS + d (no closure here: this runs per EXP)
  const table = POWERS * SLOT
  for (let i = 0; i < 8; i++) k[(POWERS + 1) * 8 + i] = s[t + i]!
  for (let d = 2; d < 1 << width; d++) mulAt(table + d * SLOT, table + (d - 1) * SLOT, table + SLOT)
  let started = false
  // bytes * 8 - 1 is 3 modulo 4: the groups of four bits never straddle two limbs
  for (let bit = bytes * 8 - 1; bit >= 0; bit -= width) {
    if (started) for (let i = 0; i < width; i++) sqrAt(r, r)
    const digit = (s[e + (bit >>> 5)]! >>> ((bit - width + 1) & 31)) & ((1 << width) - 1)
    if (digit === 0) continue
    if (started) mulAt(r, r, table + digit * SLOT)
    else k.copyWithin(RESULT * 8, (POWERS + digit) * 8, (POWERS + digit + 1) * 8)
    started = true
  }
  for (let i = 0; i < 8; i++) s[e + i] = k[RESULT * 8 + i]!
}

/** SAR (SHL and SHR are the loop's). */
function sar(f: Frame): void {
  const t = (f.sp - 1) * 8
  const s = f.stack
  const v = t - 8
  f.sp--
  const n = w.small(s, t)
  const negative = s[v + 7]! >>> 31 === 1
  if (n === -1 || n >= 256) s.fill(negative ? NEG_ONE : 0, v, v + 8)
  else w.shr(s, v, n, v, negative ? NEG_ONE : 0)
}

export const arithmetic: [number, Handler][] = [
  [0x04, (f) => divide(f, 'quotient')],
  [0x05, viaBigInt((a, b) => (b === 0n ? 0n : signed(a) / signed(b)))],
  [0x06, (f) => divide(f, 'remainder')],
  [0x07, viaBigInt((a, b) => (b === 0n ? 0n : signed(a) % signed(b)))],
  [0x08, modular((a, b) => a + b)],
  [0x09, modular((a, b) => a * b)],
  [0x0a, exp],
  [
    0x0b,
    (f) => {
      const t = (f.sp - 1) * 8
      const b = w.small(f.stack, t)
      f.sp--
      if (b !== -1 && b < 31) w.signExtend(f.stack, t - 8, b)
    },
  ],
  [
    0x1a,
    (f) => {
      const t = (f.sp - 1) * 8
      const i = w.small(f.stack, t)
      f.sp--
      w.setSmall(f.stack, t - 8, i === -1 || i >= 32 ? 0 : w.byteAt(f.stack, t - 8, i))
    },
  ],
  [0x1d, sar],
]
