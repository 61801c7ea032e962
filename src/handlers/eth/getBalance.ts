import { Address } from '@ethereumjs/util'
import { parseData, quantity } from '../../format/hex.js'
import { stateView } from '../block-param.js'
import type { Handler } from '../context.js'

/** eth_getBalance: the account's balance in wei at the block (the pending flashblock state under `pending`). */
export const eth_getBalance: Handler<'eth_getBalance'> = async ([address, block], ctx) => {
  const account = await stateView(ctx, block).getAccount(new Address(parseData(address)))
  return quantity(account?.balance ?? 0n)
}
