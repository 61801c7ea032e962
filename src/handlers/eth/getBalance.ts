import { parseData, quantity } from '../../format/hex.js'
import { stateView } from '../block-param.js'
import type { Handler } from '../context.js'

/** eth_getBalance: the account's balance in wei at the block (the pending flashblock state under `pending`). */
export const eth_getBalance: Handler<'eth_getBalance'> = async ([address, block], ctx) => {
  return quantity(await (await stateView(ctx, block)).balance(parseData(address)))
}
