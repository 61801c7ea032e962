/**
 * The filter object of X Layer's `flashblocks` kind (xlayer-reth crates/flashblocks/src/subscription):
 * camelCase, unknown fields rejected, every field defaulted, and required as a whole.
 * `{headerInfo, subTxFilter: {subscribeAddresses, txInfo, txReceipt}}`.
 */
import { FlashblocksFilterRequiredError, TooManySubscribeAddressesError } from '../errors.js'
import { MAX_SUBSCRIBE_ADDRESSES } from '../limits.js'
import { expectAtMost, invalid, isPlainObject, readAddress, typeName } from './params.js'
import type { Hex } from '../format/hex.js'

export interface XLayerFilter {
  headerInfo: boolean
  /** lower-case; empty = no transaction events, headers only */
  subscribeAddresses: ReadonlySet<Hex>
  txInfo: boolean
  txReceipt: boolean
}

const NAME = 'filter'

export function parseXLayerFilter(args: readonly unknown[], maxAddresses = MAX_SUBSCRIBE_ADDRESSES): XLayerFilter {
  expectAtMost(args, 1)
  const value = args[0]
  if (value === undefined || value === null) {
    throw new FlashblocksFilterRequiredError()
  }
  if (!isPlainObject(value)) throw invalid(NAME, `expected a filter object, got ${typeName(value)}`)
  rejectUnknown(value, ['headerInfo', 'subTxFilter'])
  const sub = value.subTxFilter ?? {}
  if (!isPlainObject(sub)) throw invalid(NAME, `expected subTxFilter to be an object, got ${typeName(sub)}`)
  rejectUnknown(sub, ['subscribeAddresses', 'txInfo', 'txReceipt'])
  const list = sub.subscribeAddresses ?? []
  if (!Array.isArray(list)) throw invalid(NAME, `expected subscribeAddresses to be an array, got ${typeName(list)}`)
  if (list.length > maxAddresses) throw new TooManySubscribeAddressesError()
  return {
    headerInfo: flag(value, 'headerInfo'),
    subscribeAddresses: new Set(list.map((item) => readAddress(item, NAME))),
    txInfo: flag(sub, 'txInfo'),
    txReceipt: flag(sub, 'txReceipt'),
  }
}

function flag(object: Record<string, unknown>, key: string): boolean {
  const value = object[key]
  if (value === undefined || value === null) return false
  if (typeof value !== 'boolean') throw invalid(NAME, `expected ${key} to be a boolean, got ${typeName(value)}`)
  return value
}

function rejectUnknown(object: Record<string, unknown>, known: readonly string[]): void {
  for (const key of Object.keys(object)) {
    if (!known.includes(key))
      throw invalid(NAME, `unknown field "${key}", expected one of ${known.map((k) => `"${k}"`).join(', ')}`)
  }
}
