/**
 * Hot basic blocks compiled into WebAssembly. The loop (loop.ts) spends ~20 ns per opcode on dispatch:
 * fetching the opcode, the switch, the pc and the stack pointer. A block's opening run of pure stack opcodes
 * (PUSH, DUP, SWAP, POP, the arithmetic but EXP, comparisons and bitwise opcodes, shifts by a constant: those
 * that cannot fail once the block's gas and depths are checked) and its JUMP or JUMPI is straight-line code
 * whose stack offsets are all known from the depth the block starts on, and PUSH's values from the code:
 * emitted as one function with constant offsets and no dispatch, in which PUSH, DUP, SWAP and POP cost
 * nothing (the compiler follows which word is where; the function writes the stack once, at its end). It
 * works on the frame's stack in the kernel's memory (stack-arena.ts) with i64 arithmetic on 32-bit limbs,
 * and MUL, the divisions, ADDMOD and MULMOD are calls of the kernel's functions on the words where they are.
 * WebAssembly, not JavaScript: V8 compiles a module in tens of microseconds (its baseline compiler, then its
 * optimising one in the background when the function is hot), where a JavaScript function ran in V8's
 * interpreter for thousands of entries, 10× slower than the switch, until its optimising compiler had spent
 * 5-50 ms on it: the first heavy call of a fresh server paid 50-120 ms for its blocks (loopExp, loopMul).
 * A block is compiled after HOT entries within one call (a loop's), with the others about as hot, in one
 * module (compileHot); the functions live with the code's analysis (analysis.ts).
 */
import type { Program } from './analysis.js'
import { i32, i64 } from './wasm-code.js'
import { instantiate } from './kernel.js'
import { I32_TYPE, moduleBytes, op, unsigned } from './wasm-module.js'

/** Entries of a block within one call before its prefix is compiled (analysis.ts newCall; below 2^16). */
export const HOT = 1000
/** The shortest prefix worth a function. */
const MIN_OPS = 3

/**
 * Runs the prefix on the stack whose word `sp` (its depth) is at byte `at` of the kernel's memory: the pc to
 * go on from × SPAN + the new depth, or -1 less that when the pc is a destination from the stack, which the
 * loop checks is a JUMPDEST.
 */
type Compiled = (at: number, sp: number) => number

/** Depths are below SPAN (STACK_LIMIT is 1024); pc × SPAN stays below 2^31 for any code. */
export const SPAN = 2048

export interface Prefix {
  fn: Compiled
  /** The pc after the prefix: where the loop's switch goes on when the function hands back this pc. */
  end: number
}

/**
 * Runs a compiled prefix. The loop calls every block's function from this one site: called first here with
 * two functions, its feedback is megamorphic from the start, so V8 never optimises the loop around one block
 * function it happened to see first and deoptimises it at the next block to be compiled.
 */
export function runPrefix(fn: Compiled, at: number, sp: number): number {
  return fn(at, sp)
}
for (let i = 0; i < 16; i++) {
  runPrefix(() => 0, 0, 0)
  runPrefix(() => 1, 0, 0)
}

/**
 * The modules' functions made, by their bytes: the same code read again (a new array: a new analysis) gets
 * the functions already made. Emptied when full.
 */
const made = new Map<string, { bytes: Uint8Array; fns: Compiled[] }>()
const MADE_CAP = 8192

/** Where the functions keep the words they compute (bytes of the kernel's memory): none calls another. */
const SCRATCH = 16384
const MAX_TEMPS = 256
const SCRATCH_END = 65536
/** The stack words below the entry depth are at negative offsets from it; a load's offset is unsigned. */
const BIAS = 32768

// the function's parameters and locals
const AT = 0
const SP = 1
const X = 2
const C = 3
const LO = 4
/** The kernel's functions the module imports, by their index in it. */
const MUL = 0
const DIVIDE = 1
const MODULAR = 2
/** divide's mode for DIV, SDIV, MOD, SMOD (kernel-ops.ts). */
const DIVIDE_MODE: Record<number, number> = { 0x04: 0, 0x05: 2, 0x06: 1, 0x07: 3 }
const ALIGN = 2

function make(bodies: number[][]): Compiled[] {
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

/**
 * Compiles the prefixes of the program's blocks entered at least HOT / 2 times in this call, all in one
 * module, when one of them reaches HOT: a loop's blocks are entered about as often, and V8's work per module
 * (1-3 ms of CPU, and collections of the code space it reserves) is most of what compiling costs.
 */
export function compileHot(p: Program): void {
  const bodies: number[][] = []
  const at: number[] = []
  const ends: number[] = []
  for (let pc = 0; pc < p.hot.length; pc++) {
    // blockShape is not 0 at a block's first pc only
    if (p.hot[pc]! > HOT / 2 || p.blockShape[pc] === 0 || p.prefixes[pc] !== undefined) continue
    const emitted = emitPrefix(p.code, p.jumps, pc)
    p.prefixes[pc] = null
    if (emitted === null) continue
    bodies.push(emitted.body)
    at.push(pc)
    ends.push(emitted.end)
  }
  if (bodies.length === 0) return
  const fns = make(bodies)
  at.forEach((pc, i) => {
    p.prefixes[pc] = { fn: fns[i]!, end: ends[i]! }
  })
}

/**
 * A word of the block's stack as the compiler knows it: the word at a stack position on entry (limb offset
 * from the entry depth × 8), a constant pushed, or a word computed into the scratch (limb offset in it).
 */
type Temp = { kind: 'temp'; at: number }
type Value = { kind: 'entry'; at: number } | { kind: 'constant'; limbs: number[] } | Temp

const LIMBS = [0, 1, 2, 3, 4, 5, 6, 7]
const get = (local: number) => [op.localGet, local]
const set = (local: number) => [op.localSet, local]
/** The address expression and the memory offset of limb `i` of `v` (an entry or a temp). */
const place = (v: Value, i: number): [number[], number] =>
  v.kind === 'entry' ? [get(LO), BIAS + (v.at + i) * 4] : [i32(0), SCRATCH + ((v as Temp).at + i) * 4]
/** Limb `i` of `v` as an i64, zero-extended (or sign-extended, for a signed comparison's top limb). */
function limb(v: Value, i: number, signed = false): number[] {
  if (v.kind === 'constant') return i64(BigInt(signed ? v.limbs[i]! | 0 : v.limbs[i]!))
  const [address, offset] = place(v, i)
  return [...address, signed ? op.i64Load32S : op.i64Load32U, ALIGN, ...unsigned(offset)]
}
/** Stores the i64 `value`'s low 32 bits as limb `i` of `v`. */
function store(v: Value, i: number, value: number[]): number[] {
  const [address, offset] = place(v, i)
  return [...address, ...value, op.i64Store32, ALIGN, ...unsigned(offset)]
}
/** The i64 OR of `v`'s limbs (zero exactly when the word is). */
const orOf = (v: Value) => LIMBS.flatMap((i) => (i === 0 ? limb(v, 0) : [...limb(v, i), op.i64Or]))
const smallConstant = (v: Value) => (v.kind === 'constant' && v.limbs.slice(1).every((x) => x === 0) ? v.limbs[0]! : -1)

/** a < b as an i32, unsigned or signed (the top limbs compared as signed numbers). */
function less(a: Value, b: Value, signed: boolean): number[] {
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
function shifted(v: Value, i: number, n: number, left: boolean): number[] {
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
 * The code of the prefix of the block at `start` of `code` (padded: analysis.ts), or null when it is too short.
 * PUSH, DUP, SWAP and POP move no limbs: the compiler follows which word is where, and the function writes
 * the stack once at its end (the words that moved and those computed). When the block ends with JUMP or
 * JUMPI, the function takes the jump too (to a JUMPDEST of `jumps`, or on past a JUMPI not taken; a
 * destination from the stack handed back for the loop to check); a jump it cannot take hands back the
 * jump's own pc and the stack as it stood there, for the switch to fail it.
 */
function emitPrefix(code: Uint8Array, jumps: Uint8Array, start: number): { body: number[]; end: number } | null {
  // lo = at - BIAS: the entry words' addresses are lo + BIAS + offset, offset negative below the entry depth
  const body: number[] = [...get(AT), ...i32(BIAS), op.i32Sub, ...set(LO)]
  /** The stack from entry position `floor` (the entry's top is -1) up. */
  let stack: Value[] = []
  let floor = 0
  let temps = 0
  const temp = (): Temp => ({ kind: 'temp', at: 8 * temps++ })
  const reach = (n: number) => {
    while (stack.length < n) stack.unshift({ kind: 'entry', at: --floor * 8 })
  }
  const pop = () => {
    reach(1)
    return stack.pop()!
  }
  /** A byte address of `v`'s word in memory (a constant copied to the scratch first), as an i32. */
  const address = (v: Value) => {
    if (v.kind === 'entry') return [...get(LO), ...i32(BIAS + v.at * 4), op.i32Add]
    if (v.kind === 'temp') return i32(SCRATCH + v.at * 4)
    const t = temp()
    for (const i of LIMBS) body.push(...store(t, i, limb(v, i)))
    return i32(SCRATCH + t.at * 4)
  }
  let pc = start
  let ops = 0
  if (code[pc] === 0x5b) pc++
  for (; temps < MAX_TEMPS - 8; ops++) {
    const op_ = code[pc]!
    if (op_ >= 0x5f && op_ <= 0x7f) {
      const size = op_ - 0x5f
      stack.push({ kind: 'constant', limbs: pushLimbs(code, pc + 1, size) })
      pc += size + 1
      continue
    }
    if (op_ >= 0x80 && op_ <= 0x8f) {
      reach(op_ - 0x7f)
      stack.push(stack[stack.length - (op_ - 0x7f)]!)
    } else if (op_ >= 0x90 && op_ <= 0x9f) {
      const n = op_ - 0x8f
      reach(n + 1)
      const top = stack.length - 1
      ;[stack[top], stack[top - n]] = [stack[top - n]!, stack[top]!]
    } else if (op_ === 0x50) pop()
    else if (op_ >= 0x04 && op_ <= 0x09) {
      // the kernel's division reads its operands where they are and writes a temp
      const a = pop()
      const b = pop()
      const n = op_ >= 0x08 ? pop() : undefined
      const t = temp()
      const operands = [address(a), address(b), ...(n === undefined ? [] : [address(n)])]
      const mode = n === undefined ? DIVIDE_MODE[op_]! : op_ - 0x08
      body.push(
        ...i32(SCRATCH + t.at * 4),
        ...operands.flat(),
        ...i32(mode),
        op.call,
        n === undefined ? DIVIDE : MODULAR,
      )
      stack.push(t)
    } else if (op_ === 0x15 || op_ === 0x19) {
      const a = pop()
      const t = temp()
      if (op_ === 0x19)
        for (const i of LIMBS) body.push(...store(t, i, [...limb(a, i), ...i64(0xffffffffn), op.i64Xor]))
      else {
        body.push(...store(t, 0, [...orOf(a), op.i64Eqz, op.i64ExtendI32U]))
        for (const i of LIMBS.slice(1)) body.push(...store(t, i, i64(0n)))
      }
      stack.push(t)
    } else if (
      (op_ >= 0x01 && op_ <= 0x03) ||
      (op_ >= 0x10 && op_ <= 0x18 && op_ !== 0x15) ||
      op_ === 0x1b ||
      op_ === 0x1c
    ) {
      reach(2)
      // a shift by a word not known here is the switch's
      if ((op_ === 0x1b || op_ === 0x1c) && stack[stack.length - 1]!.kind !== 'constant') break
      const a = pop()
      const b = pop()
      const t = temp()
      if (op_ === 0x01 || op_ === 0x03) {
        // limb sums and differences in i64: the carry is bit 32, the borrow the sign
        body.push(...i64(0n), ...set(C))
        for (const i of LIMBS) {
          body.push(...limb(a, i), ...limb(b, i), op_ === 0x01 ? op.i64Add : op.i64Sub, ...get(C))
          body.push(op_ === 0x01 ? op.i64Add : op.i64Sub, ...set(X), ...store(t, i, get(X)))
          body.push(...get(X), ...i64(op_ === 0x01 ? 32n : 63n), op.i64ShrU, ...set(C))
        }
      } else if (op_ >= 0x16 && op_ <= 0x18) {
        const bit = op_ === 0x16 ? op.i64And : op_ === 0x17 ? op.i64Or : op.i64Xor
        for (const i of LIMBS) body.push(...store(t, i, [...limb(a, i), ...limb(b, i), bit]))
      } else if (op_ === 0x1b || op_ === 0x1c) {
        const n = smallConstant(a)
        for (const i of LIMBS)
          body.push(...store(t, i, n === -1 || n >= 256 ? i64(0n) : shifted(b, i, n, op_ === 0x1b)))
      } else if (op_ === 0x02) {
        // a constant factor is copied to the scratch first
        const x = address(a)
        const y = address(b)
        body.push(...i32(SCRATCH + t.at * 4), ...x, ...y, op.call, MUL)
      } else {
        const test =
          op_ === 0x14
            ? [
                ...LIMBS.flatMap((i) => [...limb(a, i), ...limb(b, i), op.i64Xor, ...(i > 0 ? [op.i64Or] : [])]),
                op.i64Eqz,
              ]
            : op_ === 0x10 || op_ === 0x12
              ? less(a, b, op_ === 0x12)
              : less(b, a, op_ === 0x13)
        body.push(...store(t, 0, [...test, op.i64ExtendI32U]))
        for (const i of LIMBS.slice(1)) body.push(...store(t, i, i64(0n)))
      }
      stack.push(t)
    } else break
    pc++
  }
  if (ops < MIN_OPS) return null
  const at = (target: number, values: Value[], base: number) => [
    ...settle(values, base, temp),
    ...i32(target * SPAN + base + values.length),
    ...get(SP),
    op.i32Add,
    op.return,
  ]
  const last = code[pc]!
  if (last === 0x56 || last === 0x57) {
    const before = stack.slice()
    const beforeFloor = floor
    const dest = pop()
    const cond = last === 0x57 ? pop() : undefined
    const known = smallConstant(dest)
    const length = jumps.length
    if (dest.kind !== 'constant' && length * SPAN < 2 ** 31) {
      // a destination from the stack: taken when it is below the code's length, handed back negative for the
      // loop to check against the JUMPDESTs (loop.ts); above, the switch fails the jump
      if (cond !== undefined) body.push(...orOf(cond), op.i64Eqz, op.if, 0x40, ...at(pc + 1, stack, floor), op.end)
      body.push(...limb(dest, 0), ...set(X))
      body.push(...LIMBS.slice(1).flatMap((i) => (i === 1 ? limb(dest, 1) : [...limb(dest, i), op.i64Or])))
      body.push(op.i64Eqz, ...get(X), ...i64(BigInt(length)), op.i64LtU, op.i32And, op.if, 0x40)
      body.push(...settle(stack, floor, temp), ...i32(-(floor + stack.length) - 1), ...get(SP), op.i32Sub)
      body.push(...get(X), op.i32WrapI64, ...i32(SPAN), op.i32Mul, op.i32Sub, op.return, op.end)
    } else if (known !== -1 && jumps[known] === 1) {
      if (cond !== undefined) body.push(...orOf(cond), op.i64Eqz, op.if, 0x40, ...at(pc + 1, stack, floor), op.end)
      body.push(...at(known, stack, floor))
    }
    stack = before
    floor = beforeFloor
  }
  body.push(...at(pc, stack, floor))
  // the scratch ends where the kernel's page does
  if (SCRATCH + temps * 32 > SCRATCH_END) return null
  return { body, end: pc }
}

/**
 * The code that writes `values` to the stack from entry position `base` up: first the entry words that move
 * copied aside (a write may land on one), then every word not already where it stands.
 */
function settle(values: Value[], base: number, temp: () => Temp): number[] {
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
function pushLimbs(code: Uint8Array, from: number, size: number): number[] {
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
