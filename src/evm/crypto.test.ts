import { keccak_256 } from '@noble/hashes/sha3.js'
import { bytesToHex } from '@ethereumjs/util'
import { expect, test } from 'vitest'
import { keccak256 } from './crypto.js'

const message = (length: number, seed: number) => Uint8Array.from({ length }, (_, i) => (i * 31 + seed) & 255)

test('keccak256 is noble keccak_256 at every length through the stage and past it, fresh arrays and views alike', () => {
  const big = message(300, 7)
  for (let length = 0; length <= 200; length++) {
    const fresh = message(length, length)
    expect(bytesToHex(keccak256(fresh)), `length ${length}`).toBe(bytesToHex(keccak_256(fresh)))
    const view = big.subarray(length % 5, (length % 5) + length)
    expect(bytesToHex(keccak256(view)), `view of length ${length}`).toBe(bytesToHex(keccak_256(view)))
  }
})

test('a shorter message after a longer one hashes its own bytes only', () => {
  keccak256(message(64, 1))
  const short = Uint8Array.of(1, 2, 3)
  expect(bytesToHex(keccak256(short))).toBe(bytesToHex(keccak_256(short)))
  expect(bytesToHex(keccak256(new Uint8Array(0)))).toBe(bytesToHex(keccak_256(new Uint8Array(0))))
})
