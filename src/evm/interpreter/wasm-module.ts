/**
 * A WebAssembly module's bytes written out by hand (the binary format's sections, LEB128 numbers and the few
 * instructions the word kernels use), so the kernels (kernel.ts) need no toolchain or dependency: their code
 * is emitted by TypeScript at start-up, the same bytes every time. Only what the kernels use is here: one
 * exported memory, functions of i32 parameters with i64 and i32 locals and no results, exported by name.
 */

/** The instructions the kernels use (opcode bytes of the WebAssembly core specification). */
export const op = {
  block: 0x02,
  loop: 0x03,
  if: 0x04,
  else: 0x05,
  br: 0x0c,
  brIf: 0x0d,
  return: 0x0f,
  call: 0x10,
  select: 0x1b,
  localGet: 0x20,
  localSet: 0x21,
  localTee: 0x22,
  i32Load: 0x28,
  i32Store: 0x36,
  i64Load: 0x29,
  i64Load32S: 0x34,
  i64Load32U: 0x35,
  i64Store: 0x37,
  i64Store32: 0x3e,
  i32Const: 0x41,
  i64Const: 0x42,
  i32Eqz: 0x45,
  i64Eqz: 0x50,
  i64Eq: 0x51,
  i64Ne: 0x52,
  i32LtS: 0x48,
  i32GtS: 0x4a,
  i32GeS: 0x4e,
  i64LtS: 0x53,
  i64LtU: 0x54,
  i64GtU: 0x56,
  i64GeU: 0x5a,
  i32Add: 0x6a,
  i32Sub: 0x6b,
  i32Mul: 0x6c,
  i32And: 0x71,
  i32Xor: 0x73,
  i32Shl: 0x74,
  i32ShrU: 0x76,
  i32Clz: 0x67,
  i32Popcnt: 0x69,
  i64Clz: 0x79,
  i64Add: 0x7c,
  i64Sub: 0x7d,
  i64Mul: 0x7e,
  i64DivU: 0x80,
  i64RemU: 0x82,
  i64And: 0x83,
  i64Or: 0x84,
  i64Shl: 0x86,
  i64ShrS: 0x87,
  i64ShrU: 0x88,
  i64Xor: 0x85,
  i32WrapI64: 0xa7,
  i64ExtendI32U: 0xad,
  end: 0x0b,
} as const

/** The block type of a `block`, `loop` or `if` without a result, and of an `if` that leaves an i32. */
export const EMPTY_TYPE = 0x40
export const I32_TYPE = 0x7f

export interface WasmFunction {
  name: string
  /** How many i32 parameters it takes. */
  params: number
  /** 1 when it returns an i32. */
  results?: number
  /** How many i64 locals it declares after them. */
  locals: number
  /** How many i32 locals it declares after those. */
  locals32?: number
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
const IMPORT_MEMORY = 0x02

/** A function a module imports from module `k` (the kernel's), called by its index: imports come first. */
export interface WasmImport {
  name: string
  params: number
}

const signature = (f: { params: number; results?: number }) => `${f.params}:${f.results ?? 0}`

/**
 * The module: `functions` (one type per signature) and either a memory of `pages` pages exported as `memory`
 * or, with `pages` 'imported', the memory `k.m` and the functions `imports` from module `k`.
 */
export function moduleBytes(
  functions: WasmFunction[],
  pages: number | 'imported',
  imports: WasmImport[] = [],
): Uint8Array {
  const signatures = [...new Set([...imports, ...functions].map(signature))]
  const types = vector(
    signatures.map((key) => {
      const [params, results] = key.split(':').map(Number) as [number, number]
      return [
        FUNC,
        ...unsigned(params),
        ...new Array<number>(params).fill(I32),
        ...unsigned(results),
        ...new Array<number>(results).fill(I32),
      ]
    }),
  )
  const declared = vector(functions.map((f) => unsigned(signatures.indexOf(signature(f)))))
  const imported = pages === 'imported'
  const importSection = vector([
    ...(imported ? [[...name('k'), ...name('m'), IMPORT_MEMORY, 0x00, 1]] : []),
    ...imports.map((f) => [...name('k'), ...name(f.name), EXPORT_FUNC, ...unsigned(signatures.indexOf(signature(f)))]),
  ])
  const memory = imported ? [] : section(5, vector([[0x00, ...unsigned(pages)]]))
  const exports = vector([
    ...(imported ? [] : [[...name('memory'), EXPORT_MEMORY, 0]]),
    ...functions.map((f, i) => [...name(f.name), EXPORT_FUNC, ...unsigned(imports.length + i)]),
  ])
  // the code section is most of the bytes (a compiled block's: kilobytes): its bodies are copied once, into
  // the module's array, not through the spreads above
  const heads = functions.map((f) => {
    const groups: number[][] = []
    if (f.locals > 0) groups.push([...unsigned(f.locals), I64])
    if ((f.locals32 ?? 0) > 0) groups.push([...unsigned(f.locals32!), I32])
    const locals = vector(groups)
    return [...unsigned(locals.length + f.body.length + 1), ...locals]
  })
  const codeSize = heads.reduce((sum, head, i) => sum + head.length + functions[i]!.body.length + 1, 0)
  const codeCount = unsigned(functions.length)
  const front = [
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, types),
    ...(imported || imports.length > 0 ? section(2, importSection) : []),
    ...section(3, declared),
    ...memory,
    ...section(7, exports),
    10,
    ...unsigned(codeCount.length + codeSize),
    ...codeCount,
  ]
  const out = new Uint8Array(front.length + codeSize)
  out.set(front)
  let at = front.length
  functions.forEach((f, i) => {
    out.set(heads[i]!, at)
    at += heads[i]!.length
    out.set(f.body, at)
    at += f.body.length
    out[at++] = op.end
  })
  return out
}
