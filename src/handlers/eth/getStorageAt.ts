import { setLengthLeft } from '@ethereumjs/util'
import { data, parseData } from '../../format/hex.js'
import { stateView } from '../block-param.js'
import type { Handler } from '../context.js'

/** eth_getStorageAt: one 32-byte storage word at the block; a slot given short is left-padded, as geth. */
export const eth_getStorageAt: Handler<'eth_getStorageAt'> = async ([address, slot, block], ctx) => {
  const state = await stateView(ctx, block)
  const value = await state.storage(parseData(address), setLengthLeft(parseData(slot), 32))
  return data(setLengthLeft(value, 32))
}
