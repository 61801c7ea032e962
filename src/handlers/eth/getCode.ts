import { data, parseData } from '../../format/hex.js'
import { stateView } from '../block-param.js'
import type { Handler } from '../context.js'

/** eth_getCode: the account's code at the block; `0x` for an account without code. */
export const eth_getCode: Handler<'eth_getCode'> = async ([address, block], ctx) =>
  data(await (await stateView(ctx, block)).code(parseData(address)))
