import type { Eventually } from '../../capabilities/eventually.js'
import type { StateView } from '../../capabilities/read.js'
import { type Hex, parseData, quantity } from '../../format/hex.js'
import { stateView } from '../block-param.js'
import type { Handler } from '../context.js'

/**
 * eth_getBalance: the account's balance in wei at the block (the pending flashblock state under `pending`);
 * answered without a promise when the account is in memory. A closure is made only when the view has to be
 * waited for: the two `andThen` closures made on every read were ~100 B of it (bench/request-path.ts --alloc).
 */
export const eth_getBalance: Handler<'eth_getBalance'> = ([address, block], ctx) => {
  const view = stateView(ctx, block)
  return view instanceof Promise ? view.then((known) => balanceAt(known, address)) : balanceAt(view, address)
}

function balanceAt(view: StateView, address: string): Eventually<Hex> {
  const balance = view.balance(parseData(address))
  return balance instanceof Promise ? balance.then(quantity) : quantity(balance)
}
