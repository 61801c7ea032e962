import { setLengthLeft } from '@ethereumjs/util'
import { EmptyStorageRequestError, TooManyStorageSlotsError } from '../../errors.js'
import { address, data, parseData } from '../../format/hex.js'
import { MAX_STORAGE_VALUES_SLOTS } from '../../limits.js'
import { stateView } from '../block-param.js'
import type { Handler } from '../context.js'

/**
 * eth_getStorageValues: many eth_getStorageAt reads in one request, at one block: 32-byte words by
 * lower-case address in the order asked. -32602 `empty request` when no slot is asked for, and past
 * MAX_STORAGE_VALUES_SLOTS slots in all, as geth.
 */
export const eth_getStorageValues: Handler<'eth_getStorageValues'> = async ([requests, block], ctx) => {
  const entries = Object.entries(requests)
  const total = entries.reduce((n, [, slots]) => n + slots.length, 0)
  if (total > MAX_STORAGE_VALUES_SLOTS) throw new TooManyStorageSlotsError(MAX_STORAGE_VALUES_SLOTS)
  if (total === 0) throw new EmptyStorageRequestError()
  const state = await stateView(ctx, block)
  const values = await Promise.all(
    entries.map(async ([account, slots]) => {
      const bytes = parseData(account)
      const words = await Promise.all(slots.map((slot) => state.storage(bytes, setLengthLeft(parseData(slot), 32))))
      return [address(bytes), words.map((word) => data(setLengthLeft(word, 32)))] as const
    }),
  )
  return Object.fromEntries(values)
}
