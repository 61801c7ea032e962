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
import { HOT, type Program } from './analysis.js'
import { type Compiled, DIVIDE, MODULAR, MUL, make } from './block-module.js'
import {
  AT,
  BIAS,
  C,
  get,
  LIMBS,
  LO,
  less,
  limb,
  MAX_TEMPS,
  orOf,
  pushLimbs,
  SCRATCH,
  SCRATCH_END,
  SP,
  set,
  settle,
  shifted,
  smallConstant,
  store,
  type Temp,
  type Value,
  X,
} from './block-words.js'
import { i32, i64 } from './wasm-code.js'
import { op } from './wasm-module.js'

/** divide's mode for DIV, SDIV, MOD, SMOD (kernel-ops.ts). */
const DIVIDE_MODE: Record<number, number> = { 0x04: 0, 0x05: 2, 0x06: 1, 0x07: 3 }

/** The shortest prefix worth a function. */
const MIN_OPS = 3

/** Depths are below SPAN (STACK_LIMIT is 1024); pc × SPAN stays below 2^31 for any code. */
export const SPAN = 2048

/**
 * Runs a compiled prefix. (The loop decodes its result without a branch: an operation first run after V8 had
 * optimised the loop deoptimised it, 86 ms of CPU to compile it again.) The loop calls every block's function from this one site: called first here with
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
