import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import { expect, test } from 'vitest'
import { address, data, parseData } from './hex.js'

test('data is written as 0x and lower-case hex of exactly its bytes, leading zeros and all', () => {
  expect(data(new Uint8Array(0))).toBe('0x')
  expect(data(Uint8Array.of(0, 0x0a, 0xff))).toBe('0x000aff')
  const word = hexToBytes('0x00000000000000000000000000000000000000000000003635c9adc5dea00000')
  expect(data(word)).toBe('0x00000000000000000000000000000000000000000000003635c9adc5dea00000')
})

test('data of any length reads back as the same bytes, one call after another', () => {
  // lengths on both sides of the shared scratch buffer's size, longest first: nothing of one call shows in the next
  for (const length of [5000, 129, 128, 64, 33, 20, 1]) {
    const bytes = Uint8Array.from({ length }, (_, i) => (i * 37 + length) & 0xff)
    expect(data(bytes)).toBe(bytesToHex(bytes))
    expect(parseData(data(bytes))).toEqual(bytes)
  }
})

test('an address is written in lower case, as geth writes it', () => {
  expect(address(hexToBytes('0xF39FD6E51AAD88F6F4CE6AB8827279CFFFB92266'))).toBe(
    '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
  )
})

test('long data reads back in either case, as a plain Uint8Array of its own', () => {
  const bytes = Uint8Array.from({ length: 22_000 }, (_, i) => (i * 31) & 0xff)
  const read = parseData(data(bytes).toUpperCase().replace('0X', '0x'))
  expect(read).toEqual(bytes)
  expect(Buffer.isBuffer(read)).toBe(false)
  expect(read.byteLength).toBe(read.buffer.byteLength)
})

test('a character that is not hex is named by its place, in long data as in short', () => {
  // 8 bytes go through the loop, 4 000 through Buffer's decoder first
  for (const length of [8, 4000]) {
    const text = data(new Uint8Array(length))
    const at = text.length - 5
    expect(() => parseData(`${text.slice(0, at)}g${text.slice(at + 1)}`)).toThrow(`non-hex character at ${at}`)
  }
})
