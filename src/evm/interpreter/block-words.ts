/**
 * The words of a compiled block's stack as its compiler (compile.ts) follows them, and the WebAssembly code
 * that reads, computes and writes their limbs: entry words on the frame's stack in the kernel's memory, at
 * constant offsets from the entry depth; constants pushed; words computed into the kernel's scratch.
 */
import { i32, i64 } from './wasm-code.js'
import { I32_TYPE, op, unsigned } from './wasm-module.js'

/** Where the functions keep the words they compute (bytes of the kernel's memory): none calls another. */
export const SCRATCH = 16384
export const MAX_TEMPS = 256
export const SCRATCH_END = 65536
/** The stack words below the entry depth are at negative offsets from it; a load's offset is unsigned. */
export const BIAS = 32768

// the function's parameters and locals
export const AT = 0
export const SP = 1
export const X = 2
export const C = 3
export const LO = 4
const ALIGN = 2

/**
 * A word of the block's stack as the compiler knows it: the word at a stack position on entry (limb offset
 * from the entry depth × 8), a constant pushed, or a word computed into the scratch (limb offset in it).
 */
export type Temp = { kind: 'temp'; at: number }
export type Value = { kind: 'entry'; at: number } | { kind: 'constant'; limbs: number[] } | Temp

export const LIMBS = [0, 1, 2, 3, 4, 5, 6, 7]
export const get = (local: number) => [op.localGet, local]
export const set = (local: number) => [op.localSet, local]
/** The address expression and the memory offset of limb `i` of `v` (an entry or a temp). */
const place = (v: Value, i: number): [number[], number] =>
  v.kind === 'entry' ? [get(LO), BIAS + (v.at + i) * 4] : [i32(0), SCRATCH + ((v as Temp).at + i) * 4]
/** Limb `i` of `v` as an i64, zero-extended (or sign-extended, for a signed comparison's top limb). */
export function limb(v: Value, i: number, signed = false): number[] {
  if (v.kind === 'constant') return i64(BigInt(signed ? v.limbs[i]! | 0 : v.limbs[i]!))
  const [address, offset] = place(v, i)
  return [...address, signed ? op.i64Load32S : op.i64Load32U, ALIGN, ...unsigned(offset)]
}
/** Stores the i64 `value`'s low 32 bits as limb `i` of `v`. */
export function store(v: Value, i: number, value: number[]): number[] {
  const [address, offset] = place(v, i)
  return [...address, ...value, op.i64Store32, ALIGN, ...unsigned(offset)]
}
/** The i64 OR of `v`'s limbs (zero exactly when the word is). */
export const orOf = (v: Value) => LIMBS.flatMap((i) => (i === 0 ? limb(v, 0) : [...limb(v, i), op.i64Or]))
export const smallConstant = (v: Value) =>
  v.kind === 'constant' && v.limbs.slice(1).every((x) => x === 0) ? v.limbs[0]! : -1

/** a < b as an i32, unsigned or signed (the top limbs compared as signed numbers). */
export function less(a: Value, b: Value, signed: boolean): number[] {
  const out = [op.block, I32_TYPE]
  for (let i = 7; i >= 0; i--) {
    const s = signed && i === 7
    out.push(...limb(a, i, s), ...limb(b, i, s), op.i64Ne, op.if, 0x40)
    out.push(...limb(a, i, s), ...limb(b, i, s), s ? op.i64LtS : op.i64LtU, op.br, 1, op.end)
  }
  out.push(...i32(0), op.end)
  return out
}

/** Limb `i` of the word `v` shifted left (`left`) or right by the constant `n` (< 256), as an i64. */
export function shifted(v: Value, i: number, n: number, left: boolean): number[] {
  const limbs = n >>> 5
  const bits = n & 31
  const near = left ? i - limbs : i + limbs
  const far = left ? near - 1 : near + 1
  const at = (j: number) => (j >= 0 && j < 8 ? limb(v, j) : i64(0n))
  if (bits === 0) return at(near)
  const [toward, back] = left ? [op.i64Shl, op.i64ShrU] : [op.i64ShrU, op.i64Shl]
  return [...at(near), ...i64(BigInt(bits)), toward, ...at(far), ...i64(BigInt(32 - bits)), back, op.i64Or]
}

/**
 * The code that writes `values` to the stack from entry position `base` up: first the entry words that move
 * copied aside (a write may land on one), then every word not already where it stands.
 */
export function settle(values: Value[], base: number, temp: () => Temp): number[] {
  const out: number[] = []
  const placed = values.map((v, k) => {
    if (v.kind !== 'entry' || v.at === (base + k) * 8) return v
    const t = temp()
    for (const i of LIMBS) out.push(...store(t, i, limb(v, i)))
    return t
  })
  placed.forEach((v, k) => {
    if (v.kind === 'entry') return
    const to: Value = { kind: 'entry', at: (base + k) * 8 }
    for (const i of LIMBS) out.push(...store(to, i, limb(v, i)))
  })
  return out
}

/** A PUSH's `size` bytes at `from` as eight limbs, least significant first. */
export function pushLimbs(code: Uint8Array, from: number, size: number): number[] {
  const out: number[] = []
  let end = from + size
  for (let i = 0; i < 8; i++) {
    const first = Math.max(end - 4, from)
    let v = 0
    for (let k = first; k < end; k++) v = v * 256 + code[k]!
    out.push(v)
    end = first
  }
  return out
}
