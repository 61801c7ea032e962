/**
 * anvil_impersonateAccount and kin: eth_sendTransaction from these addresses needs no key (eth/sendTransaction.ts);
 * eth_sendUnsignedTransaction sends from any address as if it were impersonated.
 */
import { InvalidParamsError } from '../../errors.js'
import { data, parseData } from '../../format/hex.js'
import type { Handler } from '../context.js'
import { devNode } from '../dev-node.js'
import { fillDefaults } from '../fill-defaults.js'
import { parseCallRequest } from '../parse-call-request.js'

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

export const eth_sendUnsignedTransaction: Handler<'eth_sendUnsignedTransaction'> = async ([wire], ctx) => {
  const dev = devNode(ctx)
  const request = parseCallRequest(wire)
  const from = request.from
  if (!from) throw new InvalidParamsError('invalid argument 0: eth_sendUnsignedTransaction needs `from`')
  const filled = await fillDefaults(ctx, request, from)
  return data(await dev.sendImpersonated({ ...filled, from }))
}
