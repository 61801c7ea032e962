/**
 * 256-bit products in WebAssembly: V8's BigInt multiplies 256-bit numbers through general bignum code and
 * allocates, and JavaScript has no exact 32×32-bit product (word.ts goes through 16-bit halves in doubles).
 * WebAssembly's i64 gives one. The module (wasm-module.ts) is emitted here, straight-line code for
 * `mul` (r = a × b mod 2^256, 36 products) and `sqr` (r = a² mod 2^256, 20 products), over eight 32-bit
 * limbs, least significant first, in its memory: the layout of the interpreter's stack words, so a word goes
 * in and out as eight limbs copied. Products are summed per column in two halves (the low and high 32 bits of
 * each 64-bit product), which no column's eight products can overflow.
 */
import { divmodFunction } from './kernel-div.js'
import { divideFunction, modularFunction } from './kernel-ops.js'
import { expFunction, powFunction } from './kernel-pow.js'
import { get, i64, set } from './wasm-code.js'
import { moduleBytes, op, unsigned, type WasmFunction } from './wasm-module.js'

const L = 8
/** i32 alignment 2^2 for the 32-bit loads and stores. */
const ALIGN = 2

/** The eight limbs at the address in parameter `ptr` into locals `first`.. */
function loadLimbs(ptr: number, first: number): number[] {
  const out: number[] = []
  for (let i = 0; i < L; i++) out.push(...get(ptr), op.i64Load32U, ALIGN, ...unsigned(4 * i), ...set(first + i))
  return out
}

interface Column {
  /** Pairs of locals whose product is added once. */
  once: [number, number][]
  /** Pairs added twice (a square's off-diagonal products). */
  twice: [number, number][]
}

/**
 * The columns of a product into the memory at parameter `r`: each column's sum in `lo` (low halves, and the
 * carry) and `hi` (high halves), then limb k = lo's low 32 bits and the carry into k + 1 = lo >> 32 plus hi.
 * Modulo 2^256 (eight columns) the last column needs only its low 32 bits: its products are summed whole,
 * wrapping; a whole product (fifteen) ends with the last carry as its limb 15.
 */
function columns(r: number, cols: Column[], lo: number, hi: number, carry: number, p: number): number[] {
  const out: number[] = [...i64(0n), ...set(carry)]
  const whole = cols.length > L
  cols.forEach((col, k) => {
    const last = !whole && k === L - 1
    out.push(...i64(0n), ...set(lo), ...i64(0n), ...set(hi))
    for (const [pairs, times] of [
      [col.twice, 2],
      [col.once, 1],
    ] as const) {
      for (const [x, y] of pairs) {
        out.push(...get(x), ...get(y), op.i64Mul)
        if (last) out.push(...get(lo), op.i64Add, ...set(lo))
        else {
          out.push(op.localTee, ...unsigned(p), ...i64(0xffffffffn), op.i64And, ...get(lo), op.i64Add, ...set(lo))
          out.push(...get(p), ...i64(32n), op.i64ShrU, ...get(hi), op.i64Add, ...set(hi))
        }
      }
      // the pairs added twice come first: their sums are doubled before the others join
      if (times === 2 && pairs.length > 0) {
        out.push(...get(lo), ...i64(1n), op.i64Shl, ...set(lo))
        if (!last) out.push(...get(hi), ...i64(1n), op.i64Shl, ...set(hi))
      }
    }
    out.push(...get(r), ...get(lo), ...get(carry), op.i64Add)
    if (!last) out.push(op.localTee, ...unsigned(lo))
    out.push(op.i64Store32, ALIGN, ...unsigned(4 * k))
    if (!last) out.push(...get(lo), ...i64(32n), op.i64ShrU, ...get(hi), op.i64Add, ...set(carry))
  })
  if (whole) out.push(...get(r), ...get(carry), op.i64Store32, ALIGN, ...unsigned(4 * cols.length))
  return out
}

/** `mul`: r = a × b mod 2^256 (eight limbs); `mulWide`: the whole product, sixteen limbs. */
function mulFunction(name: 'mul' | 'mulWide'): WasmFunction {
  // params r, a, b; locals a0..a7, b0..b7, lo, hi, carry, p
  const A = 3
  const B = A + L
  const cols: Column[] = []
  for (let k = 0; k < (name === 'mul' ? L : 2 * L - 1); k++) {
    const once: [number, number][] = []
    for (let i = Math.max(0, k - L + 1); i <= Math.min(k, L - 1); i++) once.push([A + i, B + k - i])
    cols.push({ once, twice: [] })
  }
  const body = [...loadLimbs(1, A), ...loadLimbs(2, B), ...columns(0, cols, B + L, B + L + 1, B + L + 2, B + L + 3)]
  return { name, params: 3, locals: 2 * L + 4, body }
}

function sqrFunction(): WasmFunction {
  // params r, a; locals a0..a7, lo, hi, carry, p
  const A = 2
  const cols: Column[] = []
  for (let k = 0; k < L; k++) {
    const twice: [number, number][] = []
    for (let i = 0; 2 * i < k; i++) twice.push([A + i, A + k - i])
    cols.push({ once: k % 2 === 0 ? [[A + k / 2, A + k / 2]] : [], twice })
  }
  const body = [...loadLimbs(1, A), ...columns(0, cols, A + L, A + L + 1, A + L + 2, A + L + 3)]
  return { name: 'sqr', params: 2, locals: L + 4, body }
}

/** What this file uses of WebAssembly's JavaScript API (Node 20's types, the project's, do not declare it). */
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object
  Instance: new (module: object, imports?: object) => { exports: object }
}

interface Kernel {
  mul(r: number, a: number, b: number): void
  mulWide(r: number, a: number, b: number): void
  sqr(r: number, a: number): void
  divmod(m: number, n: number): void
  pow(r: number, table: number, e: number, bits: number, width: number): void
  divide(r: number, a: number, b: number, mode: number): void
  modular(r: number, a: number, b: number, n: number, kind: number): void
  exp(e: number, t: number): number
  memory: { buffer: ArrayBuffer }
}

/** The kernel's own words, the division's area and the blocks' scratch (compile.ts) fit its first page. */
const KERNEL_PAGES = 1
const PAGE = 65536
/** Frames' stacks (stack-arena.ts) past the kernel's page: 32 KB each (1024 words). */
export const ARENA = { from: KERNEL_PAGES * PAGE, stacks: 128, bytes: 32 * 1024 }
const pages = KERNEL_PAGES + (ARENA.stacks * ARENA.bytes) / PAGE

// mul and sqr first: pow calls them by these indices (kernel-pow.ts), and mulWide and divmod by theirs (kernel-ops.ts)
const functions = [
  mulFunction('mul'),
  sqrFunction(),
  mulFunction('mulWide'),
  divmodFunction(),
  powFunction(),
  divideFunction(),
  modularFunction(),
  expFunction(),
]
const instance = new WebAssembly.Instance(new WebAssembly.Module(moduleBytes(functions, pages)))
const kernel = instance.exports as unknown as Kernel

/** Byte offsets of the kernel's words: its memory seen as 32-bit limbs, slot k at limb 8k. */
export const limbs = new Uint32Array(kernel.memory.buffer)
/** r = a × b mod 2^256, slots given as byte offsets (slot × 32). */
export const mulAt = kernel.mul
/** r = a² mod 2^256. */
export const sqrAt = kernel.sqr
/** DIV, MOD, SDIV, SMOD on words at byte addresses (kernel-ops.ts). */
export const divideAt = kernel.divide
/** ADDMOD and MULMOD on words at byte addresses (kernel-ops.ts). */
export const modularAt = kernel.modular
/** EXP on words at byte addresses: the exponent's length in bytes (kernel-pow.ts). */
export const expAt = kernel.exp
/** Each slot of the kernel's memory holds one word. */
export const SLOT = 32

/** What a compiled block's module imports from the kernel (compile.ts): its memory, `mul`, `divide`, `modular`. */
const blockImports = { k: { m: kernel.memory, mul: kernel.mul, divide: kernel.divide, modular: kernel.modular } }
/** Instantiates a module that imports `blockImports`. */
export function instantiate(bytes: Uint8Array): object {
  return new WebAssembly.Instance(new WebAssembly.Module(bytes), blockImports).exports
}
