/**
 * Strict readers for one field of a feed message: a frame whose field is missing or not what the wire says
 * (hex data of the right length, a hex quantity, a whole number) is refused with a FeedDecodeError naming
 * the field, so a malformed frame is counted and dropped instead of becoming wrong pending state.
 */
import { FeedDecodeError } from './codec.js'
import { parseData } from '../format/hex.js'

const HEX_DATA = /^0x(?:[0-9a-fA-F]{2})*$/
const HEX_QUANTITY = /^0x(?:0|[1-9a-fA-F][0-9a-fA-F]*)$/

export type Fields = Record<string, unknown>

export function object(value: unknown, field: string): Fields {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new FeedDecodeError(`feed field ${field} is not an object`)
  return value as Fields
}

/** Hex bytes; `length` in bytes when the wire fixes it. */
export function bytes(value: unknown, field: string, length?: number): Uint8Array {
  if (typeof value !== 'string' || !HEX_DATA.test(value))
    throw new FeedDecodeError(`feed field ${field} is not hex data`)
  const out = parseData(value)
  if (length !== undefined && out.length !== length)
    throw new FeedDecodeError(`feed field ${field} has ${out.length} bytes, not ${length}`)
  return out
}

export function quantity(value: unknown, field: string): bigint {
  if (typeof value !== 'string' || !HEX_QUANTITY.test(value))
    throw new FeedDecodeError(`feed field ${field} is not a hex quantity`)
  return BigInt(value)
}

/** A JSON number (as most producers write `metadata.block_number` and `index`) or a hex quantity. */
export function numberOrQuantity(value: unknown, field: string): bigint {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0)
      throw new FeedDecodeError(`feed field ${field} is not a whole number`)
    return BigInt(value)
  }
  return quantity(value, field)
}

export function list(value: unknown, field: string): unknown[] {
  if (!Array.isArray(value)) throw new FeedDecodeError(`feed field ${field} is not a list`)
  return value
}

/** A map a producer may omit or write as null (balances, receipts): empty then. */
export function optionalMap(value: unknown, field: string): [string, unknown][] {
  return value === undefined || value === null ? [] : Object.entries(object(value, field))
}
