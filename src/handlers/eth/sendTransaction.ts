import { equalsBytes } from '@ethereumjs/util'
import type { CallRequest } from '../../domain/call-request.js'
import { data } from '../../format/hex.js'
import { signRequest } from '../dev-accounts.js'
import { fillDefaults } from '../fill-defaults.js'
import { parseCallRequest } from '../parse-call-request.js'
import type { Handler, HandlerContext } from '../context.js'

/**
 * eth_sendTransaction from an unlocked dev account: fills what the request leaves out and signs with the dev key
 * (signRequest, as eth_signTransaction does), then submits the bytes like eth_sendRawTransaction, so the
 * pool answers with the same texts.
 */
export const eth_sendTransaction: Handler<'eth_sendTransaction'> = async ([wire], ctx) => {
  const request = parseCallRequest(wire)
  const from = request.from
  if (from && ctx.dev?.isImpersonated(from) && !hasKey(ctx, from)) return sendImpersonated(ctx, request, from)
  return data(await ctx.submit.sendRawTransaction(await signRequest(ctx, request)))
}

/** A dev account's key signs even when its address is impersonated: its transactions stay signed for real. */
function hasKey(ctx: HandlerContext, from: Uint8Array): boolean {
  return ctx.config.devAccounts && ctx.accounts.all.some((account) => equalsBytes(account.address, from))
}

/** The dev node's impersonated sender (anvil_impersonateAccount): filled the same way, admitted without a key. */
async function sendImpersonated(ctx: HandlerContext, request: CallRequest, from: Uint8Array) {
  const filled = await fillDefaults(ctx, request, from)
  return data(await ctx.dev!.sendImpersonated({ ...filled, from }))
}
