/**
 * The in-memory chain's preimages are packed (packed-bytes.ts): each entry is found again, once, whatever ids
 * entries share, and nothing not added is.
 */
import { expect, test } from 'vitest'
import { PackedBytes } from './packed-bytes.js'

/** Entry `i`: an address (20 bytes) or, for odd `i`, a storage slot (32). */
const entry = (i: number) => {
  const bytes = new Uint8Array(i % 2 ? 32 : 20)
  new DataView(bytes.buffer).setUint32(bytes.length - 4, i)
  return bytes
}

test('100 000 addresses and slots are each found and listed once, past the first buffer and shared ids', () => {
  const set = new PackedBytes()
  // 100 000 ids of 31 bits: some are likely shared (a pair is expected after ~55 000)
  for (let i = 0; i < 100_000; i++) set.add(entry(i))
  for (let i = 0; i < 100_000; i += 3) set.add(entry(i)) // again: no second copy
  expect(set.size).toBe(100_000)
  const missing: number[] = []
  for (let i = 0; i < 100_000; i++) if (!set.has(entry(i))) missing.push(i)
  expect(missing).toEqual([])
  expect(set.has(entry(100_000))).toBe(false)
  expect(set.has(new Uint8Array(20))).toBe(true) // entry 0
  expect(set.has(new Uint8Array(32))).toBe(false)
  const listed = new Set([...set].map((bytes) => Buffer.from(bytes).toString('hex')))
  expect(listed.size).toBe(100_000)
  expect(listed.has(Buffer.from(entry(99_999)).toString('hex'))).toBe(true)
})
