import { bytesToHex, equalsBytes } from '@ethereumjs/util'
import type { FilledRequest } from '../../capabilities/accounts.js'
import { impliedTxType, type CallRequest } from '../../domain/call-request.js'
import { ChainIdMismatchError } from '../../errors.js'
import { data } from '../../format/hex.js'
import { knownBlock } from '../block-param.js'
import { unlockedAccount } from '../dev-accounts.js'
import { nextBaseFee, suggestedTip } from '../fee-params.js'
import { parseCallRequest } from '../parse-call-request.js'
import type { Handler, HandlerContext } from '../context.js'

/**
 * eth_sendTransaction from an unlocked dev account: fills what the request leaves out as geth's
 * SetDefaults does — nonce (pending, pool included), fees (maxFeePerGas = 2 * next base fee + tip, tip =
 * eth_maxPriorityFeePerGas; gasPrice = eth_gasPrice for legacy), gas (eth_estimateGas at `pending`),
 * chain id, type 2 unless a gasPrice or an authorization list says otherwise — signs with the dev key and
 * submits the bytes like eth_sendRawTransaction, so the pool answers with the same texts.
 */
export const eth_sendTransaction: Handler<'eth_sendTransaction'> = async ([wire], ctx) => {
  const request = parseCallRequest(wire)
  const from = request.from
  if (from && ctx.dev?.isImpersonated(from) && !hasKey(ctx, from)) return sendImpersonated(ctx, request, from)
  const account = unlockedAccount(
    ctx,
    request.from ? bytesToHex(request.from) : '0x0000000000000000000000000000000000000000',
  )
  const chainId = BigInt(ctx.config.chainId)
  if (request.chainId !== undefined && request.chainId !== chainId) {
    throw new ChainIdMismatchError(request.chainId, chainId)
  }
  const filled = await fillDefaults(ctx, { ...request, from: account.address, chainId })
  return data(await ctx.submit.sendRawTransaction(ctx.accounts.signTransaction(account, filled)))
}

/** A dev account's key signs even when its address is impersonated: its transactions stay signed for real. */
function hasKey(ctx: HandlerContext, from: Uint8Array): boolean {
  return ctx.config.devAccounts && ctx.accounts.all.some((account) => equalsBytes(account.address, from))
}

/** The dev node's impersonated sender (anvil_impersonateAccount): filled the same way, admitted without a key. */
async function sendImpersonated(ctx: HandlerContext, request: CallRequest, from: Uint8Array) {
  const chainId = BigInt(ctx.config.chainId)
  if (request.chainId !== undefined && request.chainId !== chainId) {
    throw new ChainIdMismatchError(request.chainId, chainId)
  }
  const filled = await fillDefaults(ctx, { ...request, from, chainId })
  return data(await ctx.dev!.sendImpersonated({ ...filled, from }))
}

async function fillDefaults(
  ctx: HandlerContext,
  request: CallRequest & { from: Uint8Array; chainId: bigint },
): Promise<FilledRequest> {
  const type = impliedTxType(request) ?? 2
  const nonce = request.nonce ?? (await ctx.resolver.pendingNonce(request.from))
  const fees: Partial<CallRequest> = {}
  if (type < 2) {
    fees.gasPrice = request.gasPrice ?? (await nextBaseFee(ctx)) + (await suggestedTip(ctx))
  } else {
    fees.maxPriorityFeePerGas = request.maxPriorityFeePerGas ?? (await suggestedTip(ctx))
    fees.maxFeePerGas = request.maxFeePerGas ?? 2n * (await nextBaseFee(ctx)) + fees.maxPriorityFeePerGas
  }
  const priced = { ...request, ...fees, type, nonce }
  const gas = request.gas ?? (await ctx.execution.estimateGas(await knownBlock(ctx, 'pending'), priced))
  return { ...priced, gas }
}
