/**
 * The WebAssembly modules of compiled blocks (compile.ts): a module's functions from their bodies, importing
 * the kernel's memory and the functions blocks call, cached by the module's bytes.
 */
import { instantiate } from './kernel.js'
import { moduleBytes } from './wasm-module.js'

/**
 * Runs the prefix on the stack whose word `sp` (its depth) is at byte `at` of the kernel's memory: the pc to
 * go on from × SPAN + the new depth, or -1 less that when the pc is a destination from the stack, which the
 * loop checks is a JUMPDEST.
 */
export type Compiled = (at: number, sp: number) => number

/** The kernel's functions the module imports, by their index in it. */
export const MUL = 0
export const DIVIDE = 1
export const MODULAR = 2

/**
 * The modules' functions made, by their bytes: the same code read again (a new array: a new analysis) gets
 * the functions already made. Emptied when full.
 */
const made = new Map<string, { bytes: Uint8Array; fns: Compiled[] }>()
const MADE_CAP = 8192

/** The functions of one module made of the blocks' `bodies` (block-words.ts's code), in their order. */
export function make(bodies: number[][]): Compiled[] {
  const functions = bodies.map((body, i) => ({ name: `b${i}`, params: 2, results: 1, locals: 2, locals32: 1, body }))
  const bytes = moduleBytes(functions, 'imported', [
    { name: 'mul', params: 3 },
    { name: 'divide', params: 4 },
    { name: 'modular', params: 5 },
  ])
  const key = fingerprint(bytes)
  const known = made.get(key)
  if (known !== undefined && sameBytes(known.bytes, bytes)) return known.fns
  if (made.size >= MADE_CAP) made.clear()
  const exports = instantiate(bytes) as Record<string, Compiled>
  const fns = bodies.map((_, i) => exports[`b${i}`]!)
  made.set(key, { bytes, fns })
  return fns
}

/** FNV-1a of the bytes and their length: the cache's key (an entry's bytes are compared on a hit). */
function fingerprint(bytes: Uint8Array): string {
  let h = 0x811c9dc5
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193)
  return `${bytes.length}:${h >>> 0}`
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}
