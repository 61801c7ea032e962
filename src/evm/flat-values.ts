/**
 * The state snapshot's table values read back: an account (RLP of nonce and balance, or of all four fields)
 * and a slot (RLP of its value's bytes). @ethereumjs/rlp's decode copies every item and makes a view of every
 * remainder (`slice`, `subarray`: a typed array each, a copy with a buffer of its own): 0.9-2.3 µs for a
 * two-field account in process, more than the address's hash in a new address's eth_getBalance. These read the
 * value in place (domain/rlp-views.ts) and copy each item once, into an array of its own (the value is a view
 * of the table). A value of another shape than these (none is written: every value is RLP.encode's), or one the
 * reader refuses, goes to RLP.decode, so what comes out, or is thrown, is RLP.decode's.
 */
import { RLP } from '@ethereumjs/rlp'
import { type Account, createAccountFromBytesArray, KECCAK256_NULL, KECCAK256_RLP } from '@ethereumjs/util'
import { checkedEnd, headerLength, itemEnd } from '../domain/rlp-views.js'

/** The account a table's value holds (fresh: its fields are copies). */
export function accountOf(value: Uint8Array): Account {
  const items = stringsOf(value)
  const fields =
    items !== undefined && (items.length === 2 || items.length === 4)
      ? items
      : (RLP.decode(value.slice()) as Uint8Array[])
  return createAccountFromBytesArray(
    fields.length === 2 ? [fields[0]!, fields[1]!, KECCAK256_RLP, KECCAK256_NULL] : fields,
  )
}

/** The slot value a table's value holds (a copy), as RLP.decode reads it. */
export function slotValueOf(value: Uint8Array): Uint8Array {
  if (checked(value) && value[0]! < 0xc0) return copy(value, 0, value.length)
  return RLP.decode(value.slice()) as Uint8Array
}

/** Whether `value` is one RLP item, checked as RLP.decode checks it (domain/rlp-views.ts). */
function checked(value: Uint8Array): boolean {
  try {
    return checkedEnd(value, 0, value.length, refused) === value.length
  } catch {
    return false
  }
}

const refused = () => new Error('not RLP')

/** A checked list's byte strings as copies, or undefined for anything else (a string, a nested list). */
function stringsOf(value: Uint8Array): Uint8Array[] | undefined {
  if (!checked(value) || value[0]! < 0xc0) return undefined
  const items: Uint8Array[] = []
  for (let at = headerLength(value, 0); at < value.length; ) {
    if (value[at]! >= 0xc0) return undefined
    const end = itemEnd(value, at, refused)
    items.push(copy(value, at, end))
    at = end
  }
  return items
}

/**
 * The string item at [at, end) of `value`, its bytes in an array of their own: a loop, as a new small array lives
 * in the heap (no buffer made, as slice makes one).
 */
function copy(value: Uint8Array, at: number, end: number): Uint8Array {
  const start = at + headerLength(value, at)
  const out = new Uint8Array(end - start)
  for (let i = start; i < end; i++) out[i - start] = value[i]!
  return out
}
