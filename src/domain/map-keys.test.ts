import { expect, test } from 'vitest'
import { byteKey } from './map-keys.js'

const bytesOf = (length: number, seed = 0) => Uint8Array.from({ length }, (_, i) => (i * 37 + seed + 255) & 0xff)

test('a key is its bytes one character each, whatever their length, and one differing byte makes another key', () => {
  for (const length of [0, 1, 20, 31, 32, 33, 64, 200]) {
    const bytes = bytesOf(length)
    const key = byteKey(bytes)
    expect(key).toBe(String.fromCharCode(...bytes))
    if (length === 0) continue
    const other = bytes.slice()
    other[length - 1]! ^= 0x80
    expect(byteKey(other)).not.toBe(key)
  }
})

test('a key of two parts is the key of their bytes joined', () => {
  const address = bytesOf(20)
  const slot = bytesOf(32, 5)
  expect(byteKey(address, slot)).toBe(String.fromCharCode(...address, ...slot))
  expect(byteKey(address, slot)).toBe(byteKey(address) + byteKey(slot))
})
