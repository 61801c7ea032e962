/**
 * The state snapshot's table values read back: an account (RLP of nonce and balance, or of all four fields)
 * and a slot (RLP of its value's bytes). @ethereumjs/rlp's decode copies every item and makes a view of every
 * remainder (`slice`, `subarray`: a typed array each, a copy with a buffer of its own): 0.9-2.3 µs for a
 * two-field account in process, more than the address's hash in a new address's eth_getBalance. These copy
 * each item once, into arrays of their own (the value is a view of the table): ~0.3 µs. A value of another shape than these (none is
 * written: every value is RLP.encode's) goes to RLP.decode, so what comes out, or is thrown, is RLP.decode's.
 */
import { RLP } from '@ethereumjs/rlp'
import { type Account, createAccountFromBytesArray, KECCAK256_NULL, KECCAK256_RLP } from '@ethereumjs/util'

/** The account a table's value holds (fresh: its fields are copies). */
export function accountOf(value: Uint8Array): Account {
  const fields = stringsOf(value) ?? (RLP.decode(value.slice()) as Uint8Array[])
  return createAccountFromBytesArray(
    fields.length === 2 ? [fields[0]!, fields[1]!, KECCAK256_RLP, KECCAK256_NULL] : fields,
  )
}

/** The slot value a table's value holds (a copy), as RLP.decode reads it. */
export function slotValueOf(value: Uint8Array): Uint8Array {
  const end = stringEnd(value, 0)
  if (end === value.length) return copy(value, stringStart(value, 0), end)
  return RLP.decode(value.slice()) as Uint8Array
}

/** The items of an RLP list of byte strings of at most 55 bytes each (an account's), or undefined for any other value. */
function stringsOf(value: Uint8Array): Uint8Array[] | undefined {
  const first = value[0]
  if (first === undefined || first < 0xc0) return undefined
  let at: number
  let length: number
  if (first <= 0xf7) {
    at = 1
    length = first - 0xc0
  } else if (first === 0xf8 && value.length > 1 && value[1]! > 55) {
    // an account of four fields is 68 bytes and more: a one-byte length (canonical only above 55)
    at = 2
    length = value[1]!
  } else return undefined
  if (at + length !== value.length) return undefined
  const items: Uint8Array[] = []
  while (at < value.length) {
    const end = stringEnd(value, at)
    if (end < 0 || end > value.length) return undefined
    items.push(copy(value, stringStart(value, at), end))
    at = end
  }
  return items
}

/** Where the byte string at `at` ends; -1 when it is not one of at most 55 bytes in canonical form. */
function stringEnd(value: Uint8Array, at: number): number {
  const first = value[at]
  if (first === undefined || first > 0xb7) return -1
  if (first < 0x80) return at + 1
  // a single byte below 0x80 is its own encoding: prefixed, it is not canonical (RLP.decode throws)
  if (first === 0x81 && (value[at + 1] ?? 0x80) < 0x80) return -1
  return at + 1 + first - 0x80
}

function stringStart(value: Uint8Array, at: number): number {
  return value[at]! < 0x80 ? at : at + 1
}

/** value[start, end) in an array of its own: a loop, as a new small array lives in the heap (no buffer made). */
function copy(value: Uint8Array, start: number, end: number): Uint8Array {
  const out = new Uint8Array(end - start)
  for (let i = start; i < end; i++) out[i - start] = value[i]!
  return out
}
