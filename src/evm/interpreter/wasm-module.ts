/**
 * A WebAssembly module's bytes written out by hand (the binary format's sections, LEB128 numbers and the few
 * instructions the word kernels use), so the kernels (kernel.ts) need no toolchain or dependency: their code
 * is emitted by TypeScript at start-up, the same bytes every time. Only what the kernels use is here: one
 * exported memory, functions of i32 parameters with i64 locals and no results, exported by name.
 */

/** The instructions the kernels use (opcode bytes of the WebAssembly core specification). */
export const op = {
  call: 0x10,
  localGet: 0x20,
  localSet: 0x21,
  localTee: 0x22,
  i64Load32U: 0x35,
  i64Store32: 0x3e,
  i32Const: 0x41,
  i64Const: 0x42,
  i64Add: 0x7c,
  i64Mul: 0x7e,
  i64And: 0x83,
  i64Shl: 0x86,
  i64ShrU: 0x88,
  end: 0x0b,
} as const

export interface WasmFunction {
  name: string
  /** How many i32 parameters it takes. */
  params: number
  /** How many i64 locals it declares after them. */
  locals: number
  /** Its instructions, without the final `end`. */
  body: number[]
}

export function unsigned(n: number): number[] {
  const out: number[] = []
  do {
    let byte = n & 0x7f
    n = Math.floor(n / 128)
    if (n !== 0) byte |= 0x80
    out.push(byte)
  } while (n !== 0)
  return out
}

export function signed(n: bigint): number[] {
  const out: number[] = []
  for (;;) {
    const byte = Number(n & 0x7fn)
    n >>= 7n
    if ((n === 0n && (byte & 0x40) === 0) || (n === -1n && (byte & 0x40) !== 0)) {
      out.push(byte)
      return out
    }
    out.push(byte | 0x80)
  }
}

function section(id: number, content: number[]): number[] {
  return [id, ...unsigned(content.length), ...content]
}

function vector(items: number[][]): number[] {
  return [...unsigned(items.length), ...items.flat()]
}

function name(text: string): number[] {
  const bytes = [...new TextEncoder().encode(text)]
  return [...unsigned(bytes.length), ...bytes]
}

const I32 = 0x7f
const I64 = 0x7e
const FUNC = 0x60
const EXPORT_FUNC = 0x00
const EXPORT_MEMORY = 0x02

/** The module: `functions` (one type per arity) and a memory of `pages` pages exported as `memory`. */
export function moduleBytes(functions: WasmFunction[], pages: number): Uint8Array {
  const arities = [...new Set(functions.map((f) => f.params))]
  const types = vector(arities.map((n) => [FUNC, ...unsigned(n), ...new Array<number>(n).fill(I32), 0]))
  const declared = vector(functions.map((f) => unsigned(arities.indexOf(f.params))))
  const memory = vector([[0x00, ...unsigned(pages)]])
  const exports = vector([
    [...name('memory'), EXPORT_MEMORY, 0],
    ...functions.map((f, i) => [...name(f.name), EXPORT_FUNC, ...unsigned(i)]),
  ])
  const bodies = vector(
    functions.map((f) => {
      const code = [...vector(f.locals > 0 ? [[...unsigned(f.locals), I64]] : []), ...f.body, op.end]
      return [...unsigned(code.length), ...code]
    }),
  )
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, types),
    ...section(3, declared),
    ...section(5, memory),
    ...section(7, exports),
    ...section(10, bodies),
  ])
}
