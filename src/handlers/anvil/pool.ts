/** anvil_dropTransaction and anvil_dropAllTransactions: the pool only; preconfirmed transactions stay in the open block. */
import { data, parseData } from '../../format/hex.js'
import type { Handler } from '../context.js'
import { devNode } from '../dev-node.js'

export const anvil_dropTransaction: Handler<'anvil_dropTransaction'> = ([hash], ctx) => {
  const dropped = devNode(ctx).dropTransaction(parseData(hash))
  return dropped ? data(dropped) : null
}

export const anvil_dropAllTransactions: Handler<'anvil_dropAllTransactions'> = (_params, ctx) => {
  devNode(ctx).dropAllTransactions()
  return null
}
