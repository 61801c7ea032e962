import { expect, test } from 'vitest'
import { analyse } from './analysis.js'
import { type Frame as FrameType, Frame } from './frame.js'
import { type Host, Touched } from './host.js'
import { steps } from './loop.js'
import { arithmetic } from './ops-arith.js'
import type { Handler } from './table.js'
import * as w from './word.js'

/** The opcodes a compiled prefix runs, and how many stack items each needs. */
const PURE: [number, number][] = [
  [0x01, 2],
  [0x02, 2],
  [0x03, 2],
  [0x04, 2],
  [0x05, 2],
  [0x06, 2],
  [0x07, 2],
  [0x08, 3],
  [0x09, 3],
  [0x10, 2],
  [0x11, 2],
  [0x12, 2],
  [0x13, 2],
  [0x14, 2],
  [0x15, 1],
  [0x16, 2],
  [0x17, 2],
  [0x18, 2],
  [0x19, 1],
  [0x1b, 2],
  [0x1c, 2],
  [0x50, 1],
  ...Array.from({ length: 16 }, (_, i): [number, number] => [0x80 + i, i + 1]),
  ...Array.from({ length: 16 }, (_, i): [number, number] => [0x90 + i, i + 2]),
]

let seed = 1
const next = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31
  // the low bits of this generator repeat quickly
  return seed >>> 8
}

function push(out: number[], size: number): void {
  out.push(0x5f + size)
  for (let i = 0; i < size; i++) out.push(next() % 4 === 0 ? 0xff : next() & 0xff)
}

/** A block of random pure opcodes that keeps the stack between 1 and 40 items, from `depth`; the new depth. */
function block(out: number[], depth: number, length: number): number {
  for (let k = 0; k < length; k++) {
    const [op, needs] = PURE[next() % PURE.length]!
    if (depth > 40) {
      out.push(0x50)
      depth--
      continue
    }
    if (depth < needs + 1 || next() % 4 === 0) {
      // small shifts and words of every width
      push(out, [1, 1, 2, 20, 32][next() % 5]!)
      depth++
      continue
    }
    out.push(op)
    depth +=
      op >= 0x80 && op < 0x90 ? 1 : op === 0x15 || op === 0x19 || op >= 0x90 ? 0 : op === 0x08 || op === 0x09 ? -2 : -1
  }
  return depth
}

/** A program: blocks of pure opcodes that jump (JUMPI on a word's low bit, JUMP) forward, then STOP. */
function program(): Uint8Array {
  const code: number[] = []
  let depth = 0
  for (let i = 0; i < 20; i++) depth = block(code, depth, 12)
  for (let j = 0; j < 6; j++) {
    depth = block(code, depth, 10)
    // JUMPI on the top word's low bit over a PUSH1 7 (the stack shows which way it went) to a JUMPDEST; last,
    // a JUMP to itself, which fails the frame;
    // every other destination computed (PUSH0 ADD), the others constant
    const from = code.length
    const computed = j % 2 === 1 ? [0x5f, 0x01] : []
    const jump = from + 6 + computed.length
    const to = j === 5 ? jump : jump + 3
    code.push(0x60, 1, 0x16, 0x61, to >> 8, to & 0xff, ...computed, j === 5 ? 0x56 : 0x57, 0x60, 7, 0x5b)
    // the least it may be
    depth += j === 5 ? 0 : -1
  }
  return Uint8Array.from(code)
}

/** The handlers of the opcodes that run through the table inside a block (the divisions): the others fail. */
const handlers = new Array<Handler>(256).fill((f) => f.fail('not pure'))
for (const [op, handler] of arithmetic) handlers[op] = handler

function run(code: Uint8Array, hot: boolean): { stack: bigint[]; gas: number; error?: string; pc: number } {
  const p = analyse(code)
  if (hot) p.hot.fill(1)
  else p.hot.fill(2 ** 30)
  const account = new Touched(new Uint8Array(20), undefined)
  const f: FrameType = Frame.take({} as Host, code, p, account, new Uint8Array(20), new Uint8Array(), false, 0, 1e6)
  while (f.status === 0) steps(f, handlers)
  const stack = Array.from({ length: f.sp }, (_, i) => w.toBigInt(f.stack, i * 8))
  // read before the frame is given back (release resets its pc and error)
  const ended = { stack, gas: f.gas, error: f.error, pc: f.pc }
  f.release()
  return ended
}

test('compiled blocks leave the stack, gas, pc and failure as the switch does', () => {
  for (let i = 0; i < 60; i++) {
    const code = program()
    const reference = run(code, false)
    const copy = code.slice()
    // the first run compiles every block on entry; the second runs the compiled ones
    run(copy, true)
    expect(run(copy, false), `program ${i}`).toEqual(reference)
  }
})
