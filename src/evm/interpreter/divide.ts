/**
 * DIV, MOD, SDIV, SMOD, ADDMOD and MULMOD on limb words (word.ts) through the WebAssembly kernel's division
 * (kernel-div.ts): the operands are copied into its memory as limbs, trimmed to their significant ones, and
 * the quotient or remainder copied back. No BigInt: V8's, conversions included, cost 1-4 µs per MULMOD.
 * Signed division divides the magnitudes and sets the sign after, as the yellow paper defines it.
 */
import { DIV_AREA } from './kernel-div.js'
import { divmodLimbs, limbs as k, mulWideAt, SLOT } from './kernel.js'

const L = 8
const U = DIV_AREA.u >> 2
const V = DIV_AREA.v >> 2
const Q = DIV_AREA.q >> 2
const R = DIV_AREA.r >> 2

/** How many of the `count` limbs of the kernel's memory at limb `at` are significant. */
function significant(at: number, count: number): number {
  let n = count
  while (n > 0 && k[at + n - 1] === 0) n--
  return n
}

/** Copies the stack word at `a` into the kernel at limb `at`, negated (two's complement) when `negate`. */
function put(s: Uint32Array, a: number, at: number, negate: boolean): void {
  if (!negate) {
    for (let i = 0; i < L; i++) k[at + i] = s[a + i]!
    return
  }
  let carry = 1
  for (let i = 0; i < L; i++) {
    const x = (~s[a + i]! >>> 0) + carry
    k[at + i] = x
    carry = x > 0xffffffff ? 1 : 0
  }
}

/** The `count` limbs at kernel limb `at` (zero above) as the stack word at `r`, negated when `negate`. */
function take(s: Uint32Array, at: number, count: number, r: number, negate: boolean): void {
  let carry = 1
  for (let i = 0; i < L; i++) {
    const x = i < count ? k[at + i]! : 0
    if (!negate) s[r + i] = x
    else {
      const y = (~x >>> 0) + carry
      s[r + i] = y
      carry = y > 0xffffffff ? 1 : 0
    }
  }
}

/**
 * Divides the dividend of `m` limbs at U by the divisor at V (8 limbs, not zero) and writes the quotient or
 * the remainder to the stack word at `r`, negated when `negate`.
 */
function divideIn(s: Uint32Array, m: number, r: number, remainder: boolean, negate: boolean): void {
  const n = significant(V, L)
  const used = significant(U, m)
  if (used < n) {
    // the divisor is larger: the quotient is 0 and the remainder the dividend
    if (remainder) take(s, U, used, r, negate)
    else s.fill(0, r, r + L)
    return
  }
  divmodLimbs(used, n)
  if (remainder) take(s, R, n, r, negate)
  else take(s, Q, used - n + 1, r, negate)
}

/** DIV or MOD: the word at `r` becomes a / b or a mod b (b the word at `r`, not zero). */
export function unsignedDivide(s: Uint32Array, a: number, r: number, remainder: boolean): void {
  put(s, a, U, false)
  put(s, r, V, false)
  divideIn(s, L, r, remainder, false)
}

/** SDIV or SMOD, the divisor at `r` not zero: the remainder takes the dividend's sign. */
export function signedDivide(s: Uint32Array, a: number, r: number, remainder: boolean): void {
  const negativeA = s[a + 7]! >>> 31 === 1
  const negativeB = s[r + 7]! >>> 31 === 1
  put(s, a, U, negativeA)
  put(s, r, V, negativeB)
  divideIn(s, L, r, remainder, remainder ? negativeA : negativeA !== negativeB)
}

/** ADDMOD: the word at `r` becomes (a + b) mod N, N the word at `r`, not zero. */
export function addMod(s: Uint32Array, a: number, b: number, r: number): void {
  let carry = 0
  for (let i = 0; i < L; i++) {
    const x = s[a + i]! + s[b + i]! + carry
    k[U + i] = x
    carry = x > 0xffffffff ? 1 : 0
  }
  k[U + L] = carry
  put(s, r, V, false)
  divideIn(s, L + 1, r, true, false)
}

/** MULMOD: the word at `r` becomes a × b mod N over the whole 512-bit product, N the word at `r`, not zero. */
export function mulMod(s: Uint32Array, a: number, b: number, r: number): void {
  put(s, a, 0, false)
  put(s, b, L, false)
  mulWideAt(DIV_AREA.u, 0, SLOT)
  put(s, r, V, false)
  divideIn(s, 2 * L, r, true, false)
}
