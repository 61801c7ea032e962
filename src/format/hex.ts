/**
 * The wire codec: domain values (bigint, Uint8Array) to JSON-RPC hex and back. Everything that crosses
 * the boundary goes through here, so quantities never carry leading zeros and data is always 0x-prefixed.
 */
import { bigIntToHex } from '@ethereumjs/util'
import { hexKey } from '../domain/map-keys.js'

export type Hex = `0x${string}`

/** A hex quantity: `0x0`, `0x1a`; never leading zeros. */
export function quantity(value: bigint | number): Hex {
  return bigIntToHex(BigInt(value)) as Hex
}

/**
 * Hex data of exactly the given bytes, lower case, as one flat string (map-keys.ts hexKey): bytesToHex appends a
 * byte at a time, ~1 KB of string pieces for a 32-byte word that JSON.stringify then flattens (a distinct
 * eth_call's largest allocation outside the EVM, bench/request-path.ts --alloc).
 */
export function data(bytes: Uint8Array): Hex {
  return `0x${hexKey(bytes)}`
}

/** Parses a validated hex quantity. */
export function parseQuantity(hex: string): bigint {
  return BigInt(hex)
}

/** Each ASCII code's hex digit value, -1 for a character that is not one. */
const DIGITS = new Int8Array(128).fill(-1)
for (let i = 0; i < 16; i++) {
  DIGITS['0123456789abcdef'.charCodeAt(i)] = i
  DIGITS['0123456789ABCDEF'.charCodeAt(i)] = i
}

function digit(hex: string, at: number): number {
  const value = DIGITS[hex.charCodeAt(at)] ?? -1
  if (value < 0) throw new RangeError(`hex string expected, got non-hex character at ${at}`)
  return value
}

/** Below this many hex digits the loop below beats Buffer's native decoder's call overhead. */
const NATIVE_FROM_DIGITS = 256

/**
 * Parses validated hex data (an odd length is padded on the left, as geth does for storage keys). Decoded in
 * one pass: @ethereumjs's hexToBytes tests the text with a regular expression and copies it twice first (a
 * tenth of a distinct eth_call's parameter handling). Long data (a Multicall's 22 KB of calldata) goes to
 * Buffer's native decoder, ~4x faster than the loop, into memory of its own: a pooled Buffer would pin its
 * 8 KB slab for as long as the call memo keeps the calldata. Its decoder stops silently at a character that
 * is not hex, so a short count sends the text to the loop, which names the character.
 */
export function parseData(hex: string): Uint8Array {
  const odd = hex.length % 2
  const bytes = new Uint8Array((hex.length - 2 + odd) / 2)
  if (!odd && hex.length >= NATIVE_FROM_DIGITS) {
    const native = Buffer.from(bytes.buffer, 0, bytes.length)
    if (native.write(hex.slice(2), 'hex') === bytes.length) return bytes
  }
  let at = 2
  let i = 0
  if (odd) bytes[i++] = digit(hex, at++)
  for (; at < hex.length; at += 2) bytes[i++] = (digit(hex, at) << 4) | digit(hex, at + 1)
  return bytes
}

/** An address as geth writes it: lower-case hex. */
export function address(bytes: Uint8Array): Hex {
  return data(bytes)
}
