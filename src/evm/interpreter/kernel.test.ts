import { expect, test } from 'vitest'
import type { Frame } from './frame.js'
import { limbs, mulAt, SLOT, sqrAt } from './kernel.js'
import { arithmetic } from './ops-arith.js'
import { takeStack } from './stack-arena.js'
import * as w from './word.js'

const M = (1n << 256n) - 1n
/** Words whose products carry through every column: 0, 1, 2, all ones, single limbs full, sign bits, random. */
const edges = [0n, 1n, 2n, 3n, M, M - 1n, 0xffffffffn, 1n << 32n, (1n << 128n) - 1n, 1n << 255n, M >> 1n, M / 3n]
const random = Array.from({ length: 200 }, (_, i) => {
  let x = BigInt(i + 1) * 0x9e3779b97f4a7c15n
  for (let k = 0; k < 5; k++) x = (x * 6364136223846793005n + 1442695040888963407n) & M
  return x >> BigInt((i * 37) % 256)
})
const words = [...edges, ...random]
const put = (slot: number, v: bigint) => w.fromBigInt(limbs, slot * 8, v)
const get = (slot: number) => w.toBigInt(limbs, slot * 8)

test('the WebAssembly kernel multiplies and squares modulo 2^256 as BigInt does', () => {
  for (const a of words)
    for (const b of edges) {
      put(1, a)
      put(2, b)
      mulAt(0, SLOT, 2 * SLOT)
      expect(get(0)).toBe((a * b) & M)
      // the result may be one of the factors
      mulAt(SLOT, SLOT, 2 * SLOT)
      expect(get(1)).toBe((a * b) & M)
    }
  for (const a of words) {
    put(1, a)
    sqrAt(0, SLOT)
    expect(get(0)).toBe((a * a) & M)
    sqrAt(SLOT, SLOT)
    expect(get(1)).toBe((a * a) & M)
  }
})

/** Holds the arena's stack the tests use for as long as they run (a collected owner gives it back). */
const stackOwner = {}
/** A stack in the kernel's memory, operated on in place (exp's `inKernel`). */
const arena = takeStack(stackOwner).stack
/** Runs EXP's handler on base and exponent with `gas`: the result and the gas left, or 'out of gas'. */
function exp(
  base: bigint,
  exponent: bigint,
  gas = 1_000_000,
  inKernel = false,
): { result: bigint; gas: number } | string {
  const stack = inKernel ? arena : new Uint32Array(32)
  w.fromBigInt(stack, 0, exponent)
  w.fromBigInt(stack, 8, base)
  let failed: string | undefined
  const f = {
    stack,
    sp: 2,
    gas,
    use(n: number) {
      if (this.gas < n) failed = 'out of gas'
      else this.gas -= n
      return failed === undefined
    },
  }
  const handler = new Map(arithmetic).get(0x0a)!
  handler(f as unknown as Frame)
  return failed ?? { result: w.toBigInt(stack, 0), gas: f.gas }
}

const modPow = (b: bigint, e: bigint) => {
  let r = 1n
  for (let x = b, n = e; n > 0n; n >>= 1n, x = (x * x) & M) if (n & 1n) r = (r * x) & M
  return r
}

test('EXP gives base ** exponent modulo 2^256 and charges 50 gas per byte of the exponent', () => {
  const exponents = [0n, 1n, 2n, 3n, 0xffn, 0x100n, 0xffffn, 0x10000n, 0xffffffffn, 255n, 256n, M, M - 1n, 1n << 255n]
  for (const base of [...edges, ...random.slice(0, 20)])
    for (const e of [...exponents, ...random.slice(20, 30)]) {
      const bytes = e === 0n ? 0 : Math.ceil(e.toString(16).length / 2)
      const expected = { result: modPow(base, e), gas: 1_000_000 - 10 - 50 * bytes }
      expect(exp(base, e), `${base} ** ${e}`).toEqual(expected)
      expect(exp(base, e, 1_000_000, true), `${base} ** ${e} in the kernel's memory`).toEqual(expected)
    }
  expect(exp(0n, 0n)).toEqual({ result: 1n, gas: 1_000_000 - 10 })
  expect(exp(3n, M, 10 + 50 * 32 - 1)).toBe('out of gas')
})
