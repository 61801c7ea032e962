/**
 * Hot basic blocks compiled into JavaScript functions. The loop (loop.ts) spends ~20 ns per opcode on
 * dispatch: fetching the opcode, the switch, the pc and the stack pointer. A block's opening run of pure
 * stack opcodes (PUSH, DUP, SWAP, POP, the cheap arithmetic, comparisons and bitwise opcodes: those that cannot
 * fail once the block's gas and depths are checked) and its JUMP or JUMPI is straight-line code whose stack
 * offsets are all known from the depth the block starts on, and PUSH's values from the code: emitted as one
 * function with constant offsets and no dispatch, in which PUSH, DUP, SWAP and POP cost nothing (the compiler
 * follows which word is where; the function writes the stack once, at its end). Only numbers from the code
 * and this file's text go into the source. Measured in process (bench/interpreter-heavy.ts, load 15): loopMul
 * d0 45-78 ms CPU by the switch, 31-33 with blocks whose words move, 20 with words that do not.
 * A block is compiled after HOT entries within one call (a loop's: V8's optimising compiler costs ~5 ms of
 * CPU per function, which blocks run a few times per call never repay); the functions live with the code's
 * analysis (analysis.ts).
 */
import * as w from './word.js'

/** Entries of a block within one call before its prefix is compiled (analysis.ts newCall; below 2^16). */
export const HOT = 1000
/** The shortest prefix worth a function. */
const MIN_OPS = 3

/**
 * Runs the prefix on the stack `s` of depth `sp`, `j` the code's JUMPDEST map: the pc to go on from × SPAN +
 * the new depth.
 */
type Compiled = (s: Uint32Array, sp: number, j: Uint8Array) => number

/** Depths are below SPAN (STACK_LIMIT is 1024); pc × SPAN stays exact in a double for any code. */
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
export function runPrefix(fn: Compiled, s: Uint32Array, sp: number, j: Uint8Array): number {
  return fn(s, sp, j)
}
for (let i = 0; i < 16; i++) {
  runPrefix(() => 0, new Uint32Array(0), 0, new Uint8Array(0))
  runPrefix(() => 1, new Uint32Array(0), 0, new Uint8Array(0))
}

/**
 * The functions made, by source: the same code read again (a new array: a new analysis) gets the functions
 * V8 has already optimised. Emptied when full.
 */
const made = new Map<string, Compiled>()
const MADE_CAP = 8192

/** Where the functions keep the words they compute: no function calls another, so they share one. */
const MAX_TEMPS = 512
const scratch = new Uint32Array(8 * MAX_TEMPS)

function make(text: string): Compiled {
  let fn = made.get(text)
  if (fn !== undefined) return fn
  if (made.size >= MADE_CAP) made.clear()

  fn = new Function('w', 'r', `'use strict'; return function block(s, sp, j) {${text}}`)(w, scratch) as Compiled
  made.set(text, fn)
  return fn
}

/**
 * A word of the block's stack as the compiler knows it: the word at a stack position on entry (limb offset
 * from the entry depth × 8), a constant pushed, or a word computed into the scratch (limb offset in it).
 */
type Temp = { kind: 'temp'; at: number }
type Value = { kind: 'entry'; at: number } | { kind: 'constant'; limbs: number[] } | Temp

const offset = (n: number) => (n < 0 ? ` - ${-n}` : ` + ${n}`)
/** Limb `i` of `v` as an expression. */
function limbOf(v: Value, i: number): string {
  if (v.kind === 'entry') return `s[b${offset(v.at + i)}]`
  if (v.kind === 'temp') return `r[${v.at + i}]`
  return `${v.limbs[i]}`
}
const LIMBS = [0, 1, 2, 3, 4, 5, 6, 7]
const smallConstant = (v: Value) => (v.kind === 'constant' && v.limbs.slice(1).every((x) => x === 0) ? v.limbs[0]! : -1)

/**
 * The compiled prefix of the block at `start` of `code` (padded: analysis.ts), or null when it is too short.
 * PUSH, DUP, SWAP and POP move no limbs: the compiler follows which word is where, and the function writes
 * the stack once at its end (the words that moved and those computed). When the block ends with JUMP or
 * JUMPI, the function takes the jump too (to a JUMPDEST of `jumps`, or on past a JUMPI not taken); a jump to
 * anything else hands back the jump's own pc and the stack as it stood there, for the switch to fail it.
 */
export function compilePrefix(code: Uint8Array, jumps: Uint8Array, start: number): Prefix | null {
  const lines: string[] = ['const b = sp * 8', 'let x = 0', 'let c = 0']
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
  /** `v`'s offset in the scratch, copied there when it is not. */
  const inScratch = (v: Value) => {
    if (v.kind === 'temp') return v.at
    const t = temp()
    for (const i of LIMBS) lines.push(`r[${t.at + i}] = ${limbOf(v, i)}`)
    return t.at
  }
  let pc = start
  let ops = 0
  if (code[pc] === 0x5b) pc++
  for (; temps < MAX_TEMPS - 8; ops++) {
    const op = code[pc]!
    if (op >= 0x5f && op <= 0x7f) {
      const size = op - 0x5f
      stack.push({ kind: 'constant', limbs: pushLimbs(code, pc + 1, size) })
      pc += size + 1
      continue
    }
    if (op >= 0x80 && op <= 0x8f) {
      reach(op - 0x7f)
      stack.push(stack[stack.length - (op - 0x7f)]!)
    } else if (op >= 0x90 && op <= 0x9f) {
      const n = op - 0x8f
      reach(n + 1)
      const top = stack.length - 1
      ;[stack[top], stack[top - n]] = [stack[top - n]!, stack[top]!]
    } else if (op === 0x50) pop()
    else if (op === 0x15 || op === 0x19) {
      const a = pop()
      const t = temp()
      if (op === 0x19) for (const i of LIMBS) lines.push(`r[${t.at + i}] = ~${limbOf(a, i)}`)
      else {
        lines.push(`r[${t.at}] = (${LIMBS.map((i) => limbOf(a, i)).join(' | ')}) === 0 ? 1 : 0`)
        for (const i of LIMBS.slice(1)) lines.push(`r[${t.at + i}] = 0`)
      }
      stack.push(t)
    } else if ((op >= 0x01 && op <= 0x03) || (op >= 0x10 && op <= 0x18 && op !== 0x15) || op === 0x1b || op === 0x1c) {
      const a = pop()
      const bv = pop()
      const t = temp()
      if (op === 0x01 || op === 0x03) {
        const sign = op === 0x01 ? '+' : '-'
        const carry = op === 0x01 ? 'x > 0xffffffff ? 1 : 0' : 'x < 0 ? 1 : 0'
        lines.push('c = 0')
        for (const i of LIMBS)
          lines.push(`x = ${limbOf(a, i)} ${sign} ${limbOf(bv, i)} ${sign} c; r[${t.at + i}] = x; c = ${carry}`)
      } else if (op >= 0x16 && op <= 0x18) {
        const bit = op === 0x16 ? '&' : op === 0x17 ? '|' : '^'
        for (const i of LIMBS) lines.push(`r[${t.at + i}] = ${limbOf(a, i)} ${bit} ${limbOf(bv, i)}`)
      } else if (op === 0x1b || op === 0x1c) {
        const shift = op === 0x1b ? 'w.shl' : 'w.shr'
        const from = inScratch(bv)
        lines.push(`x = ${smallConstant(a) !== -1 ? smallConstant(a) : `w.small(r, ${inScratch(a)})`}`)
        lines.push(`if (x === -1 || x >= 256) w.setSmall(r, ${t.at}, 0); else ${shift}(r, ${from}, x, ${t.at})`)
      } else {
        const x = inScratch(a)
        const y = inScratch(bv)
        if (op === 0x02) lines.push(`w.mul(r, ${x}, ${y}, ${t.at})`)
        else {
          const test = [
            'w.cmp(r, @) < 0',
            'w.cmp(r, @) > 0',
            'w.scmp(r, @) < 0',
            'w.scmp(r, @) > 0',
            'w.cmp(r, @) === 0',
          ]
          lines.push(`w.setSmall(r, ${t.at}, ${test[op - 0x10]!.replace('@', `${x}, ${y}`)} ? 1 : 0)`)
        }
      }
      stack.push(t)
    } else break
    pc++
  }
  if (ops < MIN_OPS) return null
  const at = (target: string, values: Value[], base: number) =>
    [...settle(values, base, temp), `return ${target} * ${SPAN} + sp + ${base + values.length}`].join('\n')
  const op = code[pc]!
  if (op === 0x56 || op === 0x57) {
    const before = stack.slice()
    const beforeFloor = floor
    const dest = pop()
    const cond = op === 0x57 ? pop() : undefined
    const after = stack
    if (cond !== undefined)
      lines.push(`if ((${LIMBS.map((i) => limbOf(cond, i)).join(' | ')}) === 0) {${at(`${pc + 1}`, after, floor)}}`)
    const known = smallConstant(dest)
    if (known !== -1) {
      if (jumps[known] === 1) lines.push(at(`${known}`, after, floor))
    } else {
      lines.push(`x = ${dest.kind === 'entry' ? `w.small(s, b${offset(dest.at)})` : `w.small(r, ${inScratch(dest)})`}`)
      lines.push(`if (j[x] === 1) {${at('x', after, floor)}}`)
    }
    stack = before
    floor = beforeFloor
  }
  lines.push(at(`${pc}`, stack, floor))
  return { fn: make(lines.join('\n')), end: pc }
}

/**
 * The lines that write `values` to the stack from entry position `base` up: first the entry words that move
 * copied aside (a write may land on one), then every word not already where it stands.
 */
function settle(values: Value[], base: number, temp: () => Temp): string[] {
  const out: string[] = []
  const placed = values.map((v, k) => {
    if (v.kind !== 'entry' || v.at === (base + k) * 8) return v
    const t = temp()
    for (const i of LIMBS) out.push(`r[${t.at + i}] = ${limbOf(v, i)}`)
    return t
  })
  placed.forEach((v, k) => {
    if (v.kind === 'entry') return
    for (const i of LIMBS) out.push(`s[b${offset((base + k) * 8 + i)}] = ${limbOf(v, i)}`)
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
