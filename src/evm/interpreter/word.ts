/**
 * 256-bit words as eight 32-bit limbs in a Uint32Array, least significant limb first, operated on in place:
 * a word is an offset into the array (the interpreter's stack). No BigInt is made on the arithmetic opcodes:
 * products and divisions are the WebAssembly kernel's (kernel.ts, divide.ts), which has exact 64-bit
 * products and quotients.
 */
import { limbs as k, mulAt, SLOT } from './kernel.js'

const L = 8
const M16 = 0xffff
const TWO32 = 0x1_0000_0000
const kernelBuffer = k.buffer

export function isZero(s: Uint32Array, a: number): boolean {
  return (s[a]! | s[a + 1]! | s[a + 2]! | s[a + 3]! | s[a + 4]! | s[a + 5]! | s[a + 6]! | s[a + 7]!) === 0
}

export function setSmall(s: Uint32Array, a: number, v: number): void {
  s[a] = v >>> 0
  s[a + 1] = v < TWO32 ? 0 : Math.floor(v / TWO32) >>> 0
  s[a + 2] = 0
  s[a + 3] = 0
  s[a + 4] = 0
  s[a + 5] = 0
  s[a + 6] = 0
  s[a + 7] = 0
}

export function copy(s: Uint32Array, from: number, to: number): void {
  s[to] = s[from]!
  s[to + 1] = s[from + 1]!
  s[to + 2] = s[from + 2]!
  s[to + 3] = s[from + 3]!
  s[to + 4] = s[from + 4]!
  s[to + 5] = s[from + 5]!
  s[to + 6] = s[from + 6]!
  s[to + 7] = s[from + 7]!
}

export function swap(s: Uint32Array, a: number, b: number): void {
  let x = s[a]!
  s[a] = s[b]!
  s[b] = x
  x = s[a + 1]!
  s[a + 1] = s[b + 1]!
  s[b + 1] = x
  x = s[a + 2]!
  s[a + 2] = s[b + 2]!
  s[b + 2] = x
  x = s[a + 3]!
  s[a + 3] = s[b + 3]!
  s[b + 3] = x
  x = s[a + 4]!
  s[a + 4] = s[b + 4]!
  s[b + 4] = x
  x = s[a + 5]!
  s[a + 5] = s[b + 5]!
  s[b + 5] = x
  x = s[a + 6]!
  s[a + 6] = s[b + 6]!
  s[b + 6] = x
  x = s[a + 7]!
  s[a + 7] = s[b + 7]!
  s[b + 7] = x
}

/** The word as a number when below 2^32, else -1 (callers treat it as out of any range). */
export function small(s: Uint32Array, a: number): number {
  return (s[a + 1]! | s[a + 2]! | s[a + 3]! | s[a + 4]! | s[a + 5]! | s[a + 6]! | s[a + 7]!) === 0 ? s[a]! : -1
}

/** The word as a number, saturated at 2^53 (a gas amount or a length compared with one). */
export function saturated(s: Uint32Array, a: number): number {
  if ((s[a + 2]! | s[a + 3]! | s[a + 4]! | s[a + 5]! | s[a + 6]! | s[a + 7]!) !== 0 || s[a + 1]! > 0x1fffff)
    return 2 ** 53
  return s[a + 1]! * TWO32 + s[a]!
}

export function add(s: Uint32Array, a: number, b: number, r: number): void {
  let carry = 0
  for (let i = 0; i < L; i++) {
    const sum = s[a + i]! + s[b + i]! + carry
    s[r + i] = sum
    carry = sum >= TWO32 ? 1 : 0
  }
}

/** r = a - b */
export function sub(s: Uint32Array, a: number, b: number, r: number): void {
  let borrow = 0
  for (let i = 0; i < L; i++) {
    const d = s[a + i]! - s[b + i]! - borrow
    s[r + i] = d
    borrow = d < 0 ? 1 : 0
  }
}

/**
 * r = a × b mod 2^256, in the WebAssembly kernel (kernel.ts): on the words where they are when the stack is in
 * its memory (stack-arena.ts), else the factors copied into its slots 0 and 1.
 */
export function mul(s: Uint32Array, a: number, b: number, r: number): void {
  if (s.buffer === kernelBuffer) {
    const at = s.byteOffset
    mulAt(at + 4 * r, at + 4 * a, at + 4 * b)
    return
  }
  for (let i = 0; i < L; i++) {
    k[i] = s[a + i]!
    k[L + i] = s[b + i]!
  }
  mulAt(2 * SLOT, 0, SLOT)
  for (let i = 0; i < L; i++) s[r + i] = k[2 * L + i]!
}

/** Unsigned comparison: -1, 0 or 1. */
export function cmp(s: Uint32Array, a: number, b: number): number {
  for (let i = L - 1; i >= 0; i--) {
    const x = s[a + i]!
    const y = s[b + i]!
    if (x !== y) return x < y ? -1 : 1
  }
  return 0
}

/** Signed comparison (two's complement). */
export function scmp(s: Uint32Array, a: number, b: number): number {
  const na = s[a + 7]! >>> 31
  const nb = s[b + 7]! >>> 31
  if (na !== nb) return na === 1 ? -1 : 1
  return cmp(s, a, b)
}

/** r = a << n (n < 256) */
export function shl(s: Uint32Array, a: number, n: number, r: number): void {
  const limbs = n >>> 5
  const bits = n & 31
  for (let i = L - 1; i >= 0; i--) {
    const j = i - limbs
    const hi = j >= 0 ? s[a + j]! : 0
    const lo = j - 1 >= 0 ? s[a + j - 1]! : 0
    s[r + i] = bits === 0 ? hi : (hi << bits) | (lo >>> (32 - bits))
  }
}

/** r = a >> n (n < 256), filled with `fill` (0 or 0xffffffff for SAR of a negative word) */
export function shr(s: Uint32Array, a: number, n: number, r: number, fill = 0): void {
  const limbs = n >>> 5
  const bits = n & 31
  for (let i = 0; i < L; i++) {
    const j = i + limbs
    const lo = j < L ? s[a + j]! : fill
    const hi = j + 1 < L ? s[a + j + 1]! : fill
    s[r + i] = bits === 0 ? lo : (lo >>> bits) | (hi << (32 - bits))
  }
}

/** The word's byte `i` counted from the most significant (BYTE), i < 32. */
export function byteAt(s: Uint32Array, a: number, i: number): number {
  const from = 31 - i
  return (s[a + (from >>> 2)]! >>> ((from & 3) * 8)) & 0xff
}

/** SIGNEXTEND from byte `b` (b < 31) of the word in place. */
export function signExtend(s: Uint32Array, a: number, b: number): void {
  const bit = b * 8 + 7
  const limb = bit >>> 5
  const off = bit & 31
  const negative = (s[a + limb]! >>> off) & 1
  const keep = off === 31 ? 0xffffffff : (1 << (off + 1)) - 1
  s[a + limb] = negative ? s[a + limb]! | ~keep : s[a + limb]! & keep
  s.fill(negative ? 0xffffffff : 0, a + limb + 1, a + L)
}

/** The word as a BigInt, built from six chunks of 48 bits (exact in doubles): fewer BigInt steps than eight limbs. */
export function toBigInt(s: Uint32Array, a: number): bigint {
  const c0 = s[a]! + (s[a + 1]! & M16) * TWO32
  const c1 = (s[a + 1]! >>> 16) + s[a + 2]! * 65536
  const c2 = s[a + 3]! + (s[a + 4]! & M16) * TWO32
  const c3 = (s[a + 4]! >>> 16) + s[a + 5]! * 65536
  const c4 = s[a + 6]! + (s[a + 7]! & M16) * TWO32
  const c5 = s[a + 7]! >>> 16
  let v = (BigInt(c5) << 48n) | BigInt(c4)
  v = (v << 48n) | BigInt(c3)
  v = (v << 48n) | BigInt(c2)
  v = (v << 48n) | BigInt(c1)
  return (v << 48n) | BigInt(c0)
}

export function fromBigInt(s: Uint32Array, a: number, v: bigint): void {
  let x = BigInt.asUintN(256, v)
  for (let i = 0; i < L; i++) {
    s[a + i] = Number(x & 0xffffffffn)
    x >>= 32n
  }
}

/** Loads `len` (≤ 32) big-endian bytes of `src` from `off` into the word, right-aligned, zero above. */
export function fromBytes(s: Uint32Array, a: number, src: Uint8Array, off: number, len: number): void {
  setSmall(s, a, 0)
  for (let k = 0; k < len; k++) {
    const pos = len - 1 - k
    s[a + (pos >>> 2)] |= src[off + k]! << ((pos & 3) * 8)
  }
}

/** Loads 32 bytes of `src` from `off`, zero past its end (CALLDATALOAD, MLOAD, padded PUSH). */
export function fromBytes32(s: Uint32Array, a: number, src: Uint8Array, off: number): void {
  if (off + 32 <= src.length) {
    for (let i = 0; i < L; i++) {
      const p = off + 28 - 4 * i
      s[a + i] = ((src[p]! << 24) | (src[p + 1]! << 16) | (src[p + 2]! << 8) | src[p + 3]!) >>> 0
    }
    return
  }
  s.fill(0, a, a + L)
  for (let k = 0; k < 32; k++) {
    const pos = 31 - k
    const byte = off + k < src.length ? src[off + k]! : 0
    s[a + (pos >>> 2)] |= byte << ((pos & 3) * 8)
  }
}

/** Writes the word as 32 big-endian bytes at `off` of `dst`. */
export function toBytes32(s: Uint32Array, a: number, dst: Uint8Array, off: number): void {
  for (let i = 0; i < L; i++) {
    const x = s[a + i]!
    const p = off + 28 - 4 * i
    dst[p] = x >>> 24
    dst[p + 1] = x >>> 16
    dst[p + 2] = x >>> 8
    dst[p + 3] = x
  }
}

/** The word as 64 hex digits (a storage key). */
export function wordHex(s: Uint32Array, a: number): string {
  let out = ''
  for (let i = L - 1; i >= 0; i--) out += s[a + i]!.toString(16).padStart(8, '0')
  return out
}
