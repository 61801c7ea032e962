/**
 * Arithmetic, comparison and bitwise opcodes on limb words in place (word.ts): the top of the stack is at
 * (sp - 1) * 8; a binary opcode writes its result over its second operand. Division by a divisor above 32
 * bits, signed division, ADDMOD and MULMOD go through the WebAssembly kernel's division (divide.ts); products
 * and EXP's squares through its multiplications (kernel.ts). Gas and stack depth are checked by the loop
 * (run.ts) before a handler runs, except EXP's per-byte charge.
 */
import { addMod, mulMod, signedDivide, unsignedDivide } from './divide.js'
import type { Frame } from './frame.js'
import { expAt, limbs as k, SLOT } from './kernel.js'
import * as w from './word.js'

type Handler = (f: Frame) => void
const EXP_BYTE_GAS = 50
const NEG_ONE = 0xffffffff
const kernelBuffer = k.buffer

/** DIV, MOD, SDIV, SMOD: the kernel gives 0 for a zero divisor. */
function division(divide: typeof unsignedDivide, remainder: boolean): Handler {
  return (f) => {
    const t = (f.sp - 1) * 8
    f.sp--
    divide(f.stack, t, t - 8, remainder)
  }
}

/** ADDMOD, MULMOD: the kernel gives 0 for a zero modulus. */
function modular(op: typeof addMod): Handler {
  return (f) => {
    const t = (f.sp - 1) * 8
    f.sp -= 2
    op(f.stack, t, t - 8, t - 16)
  }
}

/**
 * EXP whole in the WebAssembly kernel, its gas (50 per byte of the exponent) charged after: a frame out of gas
 * fails whatever its stack holds. One call, where the handler's JavaScript (the exponent's length, 2 ** n as
 * a shift, the copies) was compiled by V8 during the first heavy call of a fresh server.
 */
function exp(f: Frame): void {
  const t = (f.sp - 1) * 8
  f.sp--
  f.use(10 + EXP_BYTE_GAS * power(f.stack, t, t - 8))
}

/** The kernel's slots EXP's operands go through when the stack is not in its memory. */
const BASE = 14 * SLOT
const EXPONENT = 15 * SLOT

/**
 * The word at `e` becomes (word at `t`) ** (word at `e`) mod 2^256, in the kernel (kernel-pow.ts): on the
 * words where they are when the stack is in its memory. Returns the exponent's length in bytes.
 */
function power(s: Uint32Array, t: number, e: number): number {
  if (s.buffer === kernelBuffer) return expAt(s.byteOffset + 4 * e, s.byteOffset + 4 * t)
  for (let i = 0; i < 8; i++) {
    k[BASE / 4 + i] = s[t + i]!
    k[EXPONENT / 4 + i] = s[e + i]!
  }
  const bytes = expAt(EXPONENT, BASE)
  for (let i = 0; i < 8; i++) s[e + i] = k[EXPONENT / 4 + i]!
  return bytes
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
  [0x04, division(unsignedDivide, false)],
  [0x05, division(signedDivide, false)],
  [0x06, division(unsignedDivide, true)],
  [0x07, division(signedDivide, true)],
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
