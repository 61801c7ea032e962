import { expect, test } from 'vitest'
import * as w from './word.js'

const M = (1n << 256n) - 1n
/** Words of every shape the opcodes meet: zero, small, one limb full, sign bits, random, all ones. */
function sample(seed: number): bigint {
  let x = BigInt(seed) * 0x9e3779b97f4a7c15n
  const shapes = [
    0n,
    1n,
    2n,
    BigInt(seed % 1000),
    0xffffffffn,
    1n << BigInt(seed % 256),
    M,
    M - BigInt(seed % 7),
    1n << 255n,
  ]
  if (seed % 3 === 0) return shapes[seed % shapes.length]!
  for (let i = 0; i < 4; i++) x = (x * 6364136223846793005n + 1442695040888963407n) & M
  return x >> BigInt(seed % 200)
}

const s = new Uint32Array(64)
const put = (at: number, v: bigint) => w.fromBigInt(s, at, v)
const get = (at: number) => w.toBigInt(s, at)
const signed = (v: bigint) => BigInt.asIntN(256, v)

test('limb arithmetic gives what BigInt gives modulo 2^256 on a thousand pairs of words', () => {
  for (let i = 0; i < 1000; i++) {
    const a = sample(i)
    const b = sample(i * 7 + 3)
    put(0, a)
    put(8, b)
    w.add(s, 0, 8, 16)
    expect(get(16)).toBe((a + b) & M)
    w.sub(s, 0, 8, 16)
    expect(get(16)).toBe((a - b) & M)
    w.mul(s, 0, 8, 16)
    expect(get(16)).toBe((a * b) & M)
    expect(w.cmp(s, 0, 8)).toBe(a < b ? -1 : a > b ? 1 : 0)
    expect(w.scmp(s, 0, 8)).toBe(signed(a) < signed(b) ? -1 : signed(a) > signed(b) ? 1 : 0)
    const n = i % 256
    w.shl(s, 0, n, 16)
    expect(get(16)).toBe((a << BigInt(n)) & M)
    w.shr(s, 0, n, 16)
    expect(get(16)).toBe(a >> BigInt(n))
    w.shr(s, 0, n, 16, signed(a) < 0n ? 0xffffffff : 0)
    expect(get(16)).toBe(BigInt.asUintN(256, signed(a) >> BigInt(n)))
    expect(w.byteAt(s, 0, i % 32)).toBe(Number((a >> BigInt(8 * (31 - (i % 32)))) & 0xffn))
    const k = i % 31
    s.copyWithin(16, 0, 8)
    w.signExtend(s, 16, k)
    expect(get(16)).toBe(BigInt.asUintN(256, BigInt.asIntN(8 * (k + 1), a)))
  }
})

test('words go to and from big-endian bytes, padded with zeros past the source', () => {
  const bytes = Uint8Array.from({ length: 40 }, (_, i) => i + 1)
  w.fromBytes32(s, 0, bytes, 0)
  expect(get(0)).toBe(BigInt(`0x${Buffer.from(bytes.subarray(0, 32)).toString('hex')}`))
  w.fromBytes32(s, 0, bytes, 30)
  expect(get(0)).toBe(BigInt(`0x${Buffer.from(bytes.subarray(30)).toString('hex')}${'00'.repeat(22)}`))
  const out = new Uint8Array(32)
  put(8, 0x1234n)
  w.toBytes32(s, 8, out, 0)
  expect(Buffer.from(out).toString('hex')).toBe('1234'.padStart(64, '0'))
  expect(w.wordHex(s, 8)).toBe('1234'.padStart(64, '0'))
  expect(w.saturated(s, 8)).toBe(0x1234)
  put(8, 1n << 60n)
  expect(w.saturated(s, 8)).toBe(2 ** 53)
  expect(w.small(s, 8)).toBe(-1)
})
