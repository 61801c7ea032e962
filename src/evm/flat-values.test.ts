/**
 * The snapshot's table values read back as RLP.decode reads them: accounts of two and four fields, slots of
 * every length, and values RLP.decode refuses (non-canonical, cut short, too long, nested), which give its error.
 */
import { RLP } from '@ethereumjs/rlp'
import { bigIntToUnpaddedBytes, createAccountFromBytesArray, KECCAK256_NULL, KECCAK256_RLP } from '@ethereumjs/util'
import { expect, test } from 'vitest'
import { accountOf, slotValueOf } from './flat-values.js'

/** What the snapshot's reads did before: @ethereumjs's decode of a copy. */
function decodedAccount(value: Uint8Array) {
  const fields = RLP.decode(value.slice()) as Uint8Array[]
  return createAccountFromBytesArray(
    fields.length === 2 ? [fields[0]!, fields[1]!, KECCAK256_RLP, KECCAK256_NULL] : fields,
  )
}

/** The value, or the message it was refused with. */
function outcome<T>(read: () => T): T | string {
  try {
    return read()
  } catch (err) {
    return `threw: ${(err as Error).message}`
  }
}

const uint = (n: bigint) => bigIntToUnpaddedBytes(n)
const filled = (length: number, byte: number) => new Uint8Array(length).fill(byte)
const amounts = [0n, 1n, 0x7fn, 0x80n, 0xffn, 10n ** 18n, 10n ** 22n + 12_345n, 2n ** 256n - 1n]

test('an account of two or four fields reads as RLP.decode reads it, and its fields are copies', () => {
  const values: Uint8Array[] = []
  for (const nonce of [0n, 1n, 0x80n, 2n ** 64n - 1n])
    for (const balance of amounts) {
      values.push(RLP.encode([uint(nonce), uint(balance)]))
      values.push(RLP.encode([uint(nonce), uint(balance), filled(32, 7), filled(32, 9)]))
    }
  for (const value of values) {
    const account = accountOf(value)
    expect(account.serialize()).toEqual(decodedAccount(value).serialize())
    if (value.length > 60) {
      value.fill(0xee, value.length - 32)
      expect(account.codeHash).toEqual(filled(32, 9))
    }
  }
})

test('a slot of any length reads as RLP.decode reads it, as a copy', () => {
  for (const bytes of [
    new Uint8Array(0),
    Uint8Array.of(0),
    Uint8Array.of(0x7f),
    Uint8Array.of(0x80),
    filled(20, 3),
    filled(32, 0xab),
  ]) {
    // a copy: RLP.encode returns a single byte below 0x80 as it is
    const value = RLP.encode(bytes).slice()
    const read = slotValueOf(value)
    expect(read).toEqual(RLP.decode(value.slice()))
    value.fill(0xee)
    expect(read).toEqual(bytes)
  }
})

test('a value RLP.decode refuses or reads otherwise is refused or read the same way', () => {
  const twoFields = RLP.encode([uint(1n), uint(10n ** 18n)])
  const odd = [
    new Uint8Array(0),
    Uint8Array.of(0xc0),
    Uint8Array.of(0xc2, 0x81, 0x05), // a single byte below 0x80 written with a prefix
    Uint8Array.of(0xc3, 0x81, 0x80, 0x01), // ...and a canonical one after it
    Uint8Array.of(0x81, 0x05),
    Uint8Array.of(0x81),
    Uint8Array.of(0x82, 0x01),
    twoFields.subarray(0, twoFields.length - 1), // cut short
    Uint8Array.of(...twoFields, 0x01), // a byte after the list
    Uint8Array.of(0xc4, 0xc2, 0x01, 0x02, 0x03), // a nested list
    RLP.encode([uint(1n), filled(56, 1)]), // an item over 55 bytes
    RLP.encode([
      filled(32, 1),
      filled(32, 2),
      filled(32, 3),
      filled(32, 4),
      filled(32, 5),
      filled(32, 6),
      filled(32, 7),
      filled(32, 8),
    ]), // a list over 255 bytes
    Uint8Array.of(0xf8, 0x02, 0x01, 0x02), // a long list's length below 56
    RLP.encode(filled(33, 1)),
    Uint8Array.of(0xb8, 0x38, ...filled(56, 1)),
  ]
  for (const value of odd) {
    const account = outcome(() => accountOf(value).serialize())
    expect(account).toEqual(outcome(() => decodedAccount(value).serialize()))
    expect(outcome(() => slotValueOf(value))).toEqual(outcome(() => RLP.decode(value.slice())))
  }
})
