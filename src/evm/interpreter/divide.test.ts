import { expect, test } from 'vitest'
import { addMod, mulMod, signedDivide, unsignedDivide } from './divide.js'
import type { Frame } from './frame.js'
import { arithmetic } from './ops-arith.js'
import { takeStack } from './stack-arena.js'
import * as w from './word.js'

const M = (1n << 256n) - 1n
const signed = (x: bigint) => BigInt.asIntN(256, x)
const unsigned = (x: bigint) => BigInt.asUintN(256, x)

/** Edges: 0, 1, 2, 2^255, 2^256 - 1, limb boundaries, words whose top limb is 1 (the largest shift). */
const edges = [
  0n,
  1n,
  2n,
  3n,
  M,
  M - 1n,
  1n << 255n,
  (1n << 255n) - 1n,
  (1n << 255n) + 1n,
  0xffffffffn,
  1n << 32n,
  (1n << 32n) + 1n,
  (1n << 64n) - 1n,
  1n << 64n,
  (1n << 128n) - 1n,
  1n << 224n,
  (1n << 224n) + 0xffffffffn,
  M / 3n,
  10n ** 18n,
  10n ** 36n,
]
/** Pseudo-random words of every length, from a fixed seed (the same cases every run). */
const random = Array.from({ length: 80 }, (_, i) => {
  let x = BigInt(i + 7) * 0x9e3779b97f4a7c15n
  for (let k = 0; k < 6; k++) x = (x * 6364136223846793005n + 1442695040888963407n) & M
  return x >> BigInt((i * 29) % 256)
})
const words = [...edges, ...random]

/** Holds the arena's stack the tests use for as long as they run (a collected owner gives it back). */
const stackOwner = {}
/** The words on an array of their own (copied through the kernel's slots) and on a stack in its memory. */
const stacks = [new Uint32Array(8 * 4), takeStack(stackOwner).stack]
const A = 24
const B = 16
const N = 8

const divisions = [
  {
    name: 'DIV and MOD',
    divide: unsignedDivide,
    quotient: (a: bigint, b: bigint) => a / b,
    remainder: (a: bigint, b: bigint) => a % b,
  },
  {
    name: 'SDIV and SMOD (-2^255 / -1 included)',
    divide: signedDivide,
    quotient: (a: bigint, b: bigint) => unsigned(signed(a) / signed(b)),
    remainder: (a: bigint, b: bigint) => unsigned(signed(a) % signed(b)),
  },
]

test.each(divisions)(
  '$name in the kernel agree with BigInt on edge and random words, divisors of one limb or more',
  ({ divide, quotient, remainder }) => {
    for (const s of stacks)
      for (const a of words)
        for (const b of words) {
          if (b === 0n) continue
          for (const [keep, expected] of [
            [false, quotient(a, b)],
            [true, remainder(a, b)],
          ] as const) {
            w.fromBigInt(s, A, a)
            w.fromBigInt(s, B, b)
            divide(s, A, B, keep)
            expect(w.toBigInt(s, B), `${a}, ${b}`).toBe(expected)
          }
        }
  },
)

test('ADDMOD and MULMOD in the kernel agree with BigInt over the 257- and 512-bit intermediates', () => {
  const some = words.filter((_, i) => i % 4 === 0)
  const wrong: string[] = []
  for (const s of stacks)
    for (const a of words)
      for (const b of some)
        for (const n of some) {
          if (n === 0n) continue
          w.fromBigInt(s, A, a)
          w.fromBigInt(s, B, b)
          w.fromBigInt(s, N, n)
          addMod(s, A, B, N)
          if (w.toBigInt(s, N) !== (a + b) % n) wrong.push(`(${a} + ${b}) % ${n}`)
          w.fromBigInt(s, N, n)
          mulMod(s, A, B, N)
          if (w.toBigInt(s, N) !== (a * b) % n) wrong.push(`(${a} * ${b}) % ${n}`)
        }
  expect(wrong).toEqual([])
})

/** The handler of `op` on `operands` (the first on top of the stack): the word it leaves. */
function handle(op: number, operands: bigint[]): bigint {
  const stack = new Uint32Array(8 * operands.length)
  operands.forEach((v, i) => w.fromBigInt(stack, 8 * (operands.length - 1 - i), v))
  const f = { stack, sp: operands.length }
  new Map(arithmetic).get(op)!(f as unknown as Frame)
  expect(f.sp).toBe(1)
  return w.toBigInt(stack, 0)
}

test('the division opcodes give 0 for a zero divisor or modulus and agree with BigInt on every path', () => {
  const reference: [number, (a: bigint, b: bigint, n: bigint) => bigint][] = [
    [0x04, (a, b) => (b === 0n ? 0n : a / b)],
    [0x05, (a, b) => (b === 0n ? 0n : unsigned(signed(a) / signed(b)))],
    [0x06, (a, b) => (b === 0n ? 0n : a % b)],
    [0x07, (a, b) => (b === 0n ? 0n : unsigned(signed(a) % signed(b)))],
    [0x08, (a, b, n) => (n === 0n ? 0n : (a + b) % n)],
    [0x09, (a, b, n) => (n === 0n ? 0n : (a * b) % n)],
  ]
  const wrong: string[] = []
  for (const [op, expected] of reference)
    for (const a of edges)
      for (const b of edges)
        for (const n of op >= 0x08 ? edges : [0n]) {
          const operands = op >= 0x08 ? [a, b, n] : [a, b]
          if (handle(op, operands) !== expected(a, b, n)) wrong.push(`${op}: ${operands.join(', ')}`)
        }
  expect(wrong).toEqual([])
})
