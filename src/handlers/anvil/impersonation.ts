/** anvil_impersonateAccount and kin: eth_sendTransaction from these addresses needs no key (eth/sendTransaction.ts). */
import { parseData } from '../../format/hex.js'
import type { Handler } from '../context.js'
import { devNode } from '../dev-node.js'

export const anvil_impersonateAccount: Handler<'anvil_impersonateAccount'> = ([address], ctx) => {
  devNode(ctx).impersonate(parseData(address))
  return null
}

export const anvil_stopImpersonatingAccount: Handler<'anvil_stopImpersonatingAccount'> = ([address], ctx) => {
  devNode(ctx).stopImpersonating(parseData(address))
  return null
}

export const anvil_autoImpersonateAccount: Handler<'anvil_autoImpersonateAccount'> = ([enabled], ctx) => {
  devNode(ctx).autoImpersonate(enabled)
  return null
}
