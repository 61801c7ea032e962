import { andThen } from '../../capabilities/eventually.js'
import { parseData, quantity } from '../../format/hex.js'
import { stateView } from '../block-param.js'
import type { Handler } from '../context.js'

/**
 * eth_getBalance: the account's balance in wei at the block (the pending flashblock state under `pending`);
 * answered without a promise when the account is in memory.
 */
export const eth_getBalance: Handler<'eth_getBalance'> = ([address, block], ctx) =>
  andThen(
    andThen(stateView(ctx, block), (view) => view.balance(parseData(address))),
    quantity,
  )
