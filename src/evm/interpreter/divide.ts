/**
 * DIV, MOD, SDIV, SMOD, ADDMOD and MULMOD on limb words (word.ts), whole in the WebAssembly kernel
 * (kernel-ops.ts): on the words where they are when the stack is in the kernel's memory (stack-arena.ts),
 * else through three of its slots. No BigInt: V8's, conversions included, cost 1-4 µs per MULMOD.
 */
import { divideAt, limbs as k, modularAt, SLOT } from './kernel.js'

const L = 8
const kernelBuffer = k.buffer

/** Copies `count` words of `s` from limb `a`, `b`, `c` into the kernel's slots 0, 1, 2. */
function slotsIn(s: Uint32Array, a: number, b: number, c: number): void {
  for (let i = 0; i < L; i++) {
    k[i] = s[a + i]!
    k[L + i] = s[b + i]!
    k[2 * L + i] = s[c + i]!
  }
}

function slotOut(s: Uint32Array, r: number): void {
  for (let i = 0; i < L; i++) s[r + i] = k[2 * L + i]!
}

/** The word at `b` becomes a / b (mode 0), a mod b (1), signed a / b (2) or a mod b (3); 0 when b is 0. */
function divideWords(s: Uint32Array, a: number, b: number, mode: number): void {
  if (s.buffer === kernelBuffer) {
    const at = s.byteOffset
    divideAt(at + 4 * b, at + 4 * a, at + 4 * b, mode)
    return
  }
  slotsIn(s, a, b, b)
  divideAt(2 * SLOT, 0, SLOT, mode)
  slotOut(s, b)
}

/** DIV or MOD: the word at `r` becomes a / b or a mod b (b the word at `r`; 0 when b is 0). */
export function unsignedDivide(s: Uint32Array, a: number, r: number, remainder: boolean): void {
  divideWords(s, a, r, remainder ? 1 : 0)
}

/** SDIV or SMOD (b the word at `r`; 0 when b is 0): the remainder takes the dividend's sign. */
export function signedDivide(s: Uint32Array, a: number, r: number, remainder: boolean): void {
  divideWords(s, a, r, remainder ? 3 : 2)
}

/** The word at `r` becomes (a + b) mod N (kind 0) or a × b mod N (1), N the word at `r`; 0 when N is 0. */
function modular(s: Uint32Array, a: number, b: number, r: number, kind: number): void {
  if (s.buffer === kernelBuffer) {
    const at = s.byteOffset
    modularAt(at + 4 * r, at + 4 * a, at + 4 * b, at + 4 * r, kind)
    return
  }
  slotsIn(s, a, b, r)
  modularAt(2 * SLOT, 0, SLOT, 2 * SLOT, kind)
  slotOut(s, r)
}

/** ADDMOD over the 257-bit sum. */
export function addMod(s: Uint32Array, a: number, b: number, r: number): void {
  modular(s, a, b, r, 0)
}

/** MULMOD over the whole 512-bit product. */
export function mulMod(s: Uint32Array, a: number, b: number, r: number): void {
  modular(s, a, b, r, 1)
}
