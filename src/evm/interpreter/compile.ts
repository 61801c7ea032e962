/**
 * Hot basic blocks compiled into JavaScript functions. The loop (loop.ts) spends ~20 ns per opcode on
 * dispatch: fetching the opcode, the switch, the pc and the stack pointer. A block's opening run of pure
 * stack opcodes (PUSH, DUP, SWAP, POP, the cheap arithmetic, comparisons and bitwise opcodes: those that cannot
 * fail once the block's gas and depths are checked) is straight-line code whose stack offsets are all known
 * from the depth the block starts on, and PUSH's values from the code: emitted as one function `(s, sp) => sp'`
 * with constant offsets and no dispatch. Only numbers from the code and this file's text go into the source.
 * A block is compiled after HOT entries (V8 compiles what `new Function` makes lazily, and first-time calls
 * must not pay for blocks that run a few times); the functions live with the code's analysis (analysis.ts).
 */
import * as w from './word.js'

/** Entries of a block before its prefix is compiled. */
export const HOT = 200
/** The shortest prefix worth a function. */
const MIN_OPS = 3

/**
 * Runs the prefix on the stack `s` of depth `sp`, `j` the code's JUMPDEST map: the pc to go on from × SPAN +
 * the new depth.
 */
export type Compiled = (s: Uint32Array, sp: number, j: Uint8Array) => number

/** Depths are below SPAN (STACK_LIMIT is 1024); pcs below 2^16 (EIP-170's and EIP-3860's caps). */
export const SPAN = 2048

export interface Prefix {
  fn: Compiled
  /** The pc after the prefix: where the loop's switch goes on when the function hands back this pc. */
  end: number
}

/**
 * The functions made, by source: the same code read again (a new array: a new analysis) gets the functions
 * V8 has already optimised. Emptied when full.
 */
const made = new Map<string, Compiled>()
const MADE_CAP = 8192

function make(text: string): Compiled {
  let fn = made.get(text)
  if (fn !== undefined) return fn
  if (made.size >= MADE_CAP) made.clear()
  fn = new Function('w', `'use strict'; return function block(s, sp, j) {${text}}`)(w) as Compiled
  made.set(text, fn)
  return fn
}

const limb = (offset: number) => `s[b${offset < 0 ? ` - ${-offset}` : ` + ${offset}`}]`

/**
 * The compiled prefix of the block at `start` of `code` (padded: analysis.ts), or null when it is too short.
 * When the block ends with JUMP or JUMPI, the function takes the jump too (to a JUMPDEST of `jumps`, or on
 * past a JUMPI not taken); a jump to anything else hands back the jump's own pc, the stack as it was, for the
 * switch to fail it as it would.
 */
export function compilePrefix(code: Uint8Array, jumps: Uint8Array, start: number): Prefix | null {
  const lines: string[] = ['const b = sp * 8', 'let x = 0', 'let c = 0']
  let d = 0
  let pc = start
  let ops = 0
  /** The value of the last opcode when it was a PUSH (a jump's constant destination). */
  let pushed = -1
  if (code[pc] === 0x5b) pc++
  for (; ; ops++) {
    const op = code[pc]!
    // the top word at T, the one below at B (limb offsets from b)
    const T = (d - 1) * 8
    const B = T - 8
    const word = (at: number, f: (i: number) => string) => {
      for (let i = 0; i < 8; i++) lines.push(f(i).replaceAll('@', limb(at + i)))
    }
    if (op >= 0x5f && op <= 0x7f) {
      const size = op - 0x5f
      const limbs = pushLimbs(code, pc + 1, size)
      word(T + 8, (i) => `@ = ${limbs[i]}`)
      pushed = limbs.slice(1).every((v) => v === 0) ? limbs[0]! : -1
      d++
      pc += size + 1
      continue
    }
    if (op >= 0x80 && op <= 0x8f) {
      const from = (d - (op - 0x7f)) * 8
      word(T + 8, (i) => `@ = ${limb(from + i)}`)
      d++
    } else if (op >= 0x90 && op <= 0x9f) {
      const other = T - (op - 0x8f) * 8
      word(T, (i) => `x = @; @ = ${limb(other + i)}; ${limb(other + i)} = x`)
    } else if (op === 0x50) d--
    else if (op === 0x01 || op === 0x03) {
      lines.push('c = 0')
      const sign = op === 0x01 ? '+' : '-'
      const carry = op === 0x01 ? 'x > 0xffffffff ? 1 : 0' : 'x < 0 ? 1 : 0'
      word(T, (i) => `x = @ ${sign} ${limb(B + i)} ${sign} c; ${limb(B + i)} = x; c = ${carry}`)
      d--
    } else if (op === 0x16 || op === 0x17 || op === 0x18) {
      const bit = op === 0x16 ? '&' : op === 0x17 ? '|' : '^'
      word(B, (i) => `@ = @ ${bit} ${limb(T + i)}`)
      d--
    } else if (op === 0x19) word(T, () => '@ = ~@')
    else if (op === 0x15) {
      lines.push(`x = (${[0, 1, 2, 3, 4, 5, 6, 7].map((i) => limb(T + i)).join(' | ')}) === 0 ? 1 : 0`)
      word(T, (i) => (i === 0 ? '@ = x' : '@ = 0'))
    } else if (op >= 0x10 && op <= 0x14) {
      const test = ['w.cmp(s, t, u) < 0', 'w.cmp(s, t, u) > 0', 'w.scmp(s, t, u) < 0', 'w.scmp(s, t, u) > 0'][op - 0x10]
      const at = `b + ${T}, b + ${B}`
      lines.push(`w.setSmall(s, b + ${B}, ${(test ?? 'w.cmp(s, t, u) === 0').replace('t, u', at)} ? 1 : 0)`)
      d--
    } else if (op === 0x02) {
      lines.push(`w.mul(s, b + ${T}, b + ${B}, b + ${B})`)
      d--
    } else if (op === 0x1b || op === 0x1c) {
      const shift = op === 0x1b ? 'w.shl' : 'w.shr'
      lines.push(`x = w.small(s, b + ${T})`)
      lines.push(`if (x === -1 || x >= 256) w.setSmall(s, b + ${B}, 0); else ${shift}(s, b + ${B}, x, b + ${B})`)
      d--
    } else break
    pushed = -1
    pc++
  }
  const at = (target: string, depth: number) => `return ${target} * ${SPAN} + sp + ${depth}`
  const T = (d - 1) * 8
  const op = code[pc]!
  if (op === 0x56 || op === 0x57) {
    const taken = op === 0x56 ? d - 1 : d - 2
    if (op === 0x57) {
      lines.push(
        `if ((${[0, 1, 2, 3, 4, 5, 6, 7].map((i) => limb(T - 8 + i)).join(' | ')}) === 0) ${at(`${pc + 1}`, taken)}`,
      )
    }
    if (pushed === -1) lines.push(`x = w.small(s, b + ${T})`, `if (j[x] === 1) ${at('x', taken)}`)
    else if (jumps[pushed] === 1) lines.push(at(`${pushed}`, taken))
    ops++
  }
  if (ops < MIN_OPS) return null
  lines.push(at(`${pc}`, d))
  return { fn: make(lines.join('\n')), end: pc }
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
