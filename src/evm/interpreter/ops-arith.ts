/**
 * Arithmetic, comparison and bitwise opcodes on limb words in place (word.ts): the top of the stack is at
 * (sp - 1) * 8; a binary opcode writes its result over its second operand. Division by a divisor above 32
 * bits, signed division, ADDMOD and MULMOD go through the WebAssembly kernel's division (divide.ts); products
 * and EXP's squares through its multiplications (kernel.ts). Gas and stack depth are checked by the loop
 * (run.ts) before a handler runs, except EXP's per-byte charge.
 */
import { addMod, mulMod, signedDivide, unsignedDivide } from './divide.js'
import type { Frame } from './frame.js'
import { limbs as k, powAt, SLOT } from './kernel.js'
import * as w from './word.js'

type Handler = (f: Frame) => void
const EXP_BYTE_GAS = 50
const NEG_ONE = 0xffffffff

function divide(f: Frame, remainder: boolean): void {
  const t = (f.sp - 1) * 8
  const s = f.stack
  f.sp--
  const r = t - 8
  if (w.isZero(s, r)) return // x / 0 = x % 0 = 0, and the divisor's slot already holds 0
  const d = w.small(s, r)
  if (d !== -1) {
    const rem = w.divSmall(s, t, d, r)
    if (remainder) w.setSmall(s, r, rem)
    return
  }
  if (w.cmp(s, t, r) < 0) {
    if (remainder) w.copy(s, t, r)
    else w.setSmall(s, r, 0)
    return
  }
  unsignedDivide(s, t, r, remainder)
}

function signedDivision(remainder: boolean): Handler {
  return (f) => {
    const t = (f.sp - 1) * 8
    f.sp--
    if (!w.isZero(f.stack, t - 8)) signedDivide(f.stack, t, t - 8, remainder)
  }
}

function modular(op: typeof addMod): Handler {
  return (f) => {
    const t = (f.sp - 1) * 8
    f.sp -= 2
    // x op y mod 0 = 0, and the modulus' slot already holds 0
    if (!w.isZero(f.stack, t - 16)) op(f.stack, t, t - 8, t - 16)
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

/** The kernel's slots EXP uses: the exponent, the result, and from POWERS + 1 the base's powers 1..15. */
const EXPONENT = 15
const RESULT = 16
const POWERS = 16

/**
 * The word at `e` becomes (word at `t`) ** (word at `e`) mod 2^256, `bytes` the exponent's length, in the
 * WebAssembly kernel (kernel-pow.ts): four bits at a time against a table of the base's first 15 powers when
 * the exponent is longer than two bytes, one at a time below (where the table costs more than it saves).
 * bytes * 8 - 1 is 3 modulo 4: the groups of four bits never straddle two limbs.
 */
function power(s: Uint32Array, t: number, e: number, bytes: number): void {
  for (let i = 0; i < 8; i++) {
    k[(POWERS + 1) * 8 + i] = s[t + i]!
    k[EXPONENT * 8 + i] = s[e + i]!
  }
  powAt(RESULT * SLOT, POWERS * SLOT, EXPONENT * SLOT, bytes * 8, bytes > 2 ? 4 : 1)
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
  [0x04, (f) => divide(f, false)],
  [0x05, signedDivision(false)],
  [0x06, (f) => divide(f, true)],
  [0x07, signedDivision(true)],
  [0x08, modular(addMod)],
  [0x09, modular(mulMod)],
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
