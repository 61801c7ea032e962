/**
 * What eth_sendTransaction and eth_fillTransaction fill in a request that leaves it out, as geth's SetDefaults:
 * nonce (pending, pool included), fees (maxFeePerGas = 2 * next base fee + tip, tip = eth_maxPriorityFeePerGas;
 * gasPrice = next base fee + tip for legacy and EIP-2930), gas (eth_estimateGas at `pending`),
 * type 2 unless a gasPrice or an authorization list says otherwise; the node's chain id (another is an error).
 */
import { impliedTxType, type CallRequest, type FilledRequest } from '../domain/call-request.js'
import { ChainIdMismatchError } from '../errors.js'
import { knownBlock } from './block-param.js'
import { nextBaseFee, suggestedTip } from './fee-params.js'
import type { HandlerContext } from './context.js'

/**
 * What the gas estimate is priced at: the filled fees (geth's eth_sendTransaction: the sender must afford them),
 * or only the fees the request gave (reth's and anvil's eth_fillTransaction: an unfunded sender still learns its gas).
 */
export type EstimatePricing = 'filled' | 'given'

export async function fillDefaults(
  ctx: HandlerContext,
  wire: CallRequest,
  from: Uint8Array,
  pricing: EstimatePricing = 'filled',
): Promise<FilledRequest> {
  const chainId = BigInt(ctx.config.chainId)
  if (wire.chainId !== undefined && wire.chainId !== chainId) throw new ChainIdMismatchError(wire.chainId, chainId)
  const request = { ...wire, from, chainId }
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
  const estimated = pricing === 'filled' ? priced : { ...request, type, nonce }
  const gas = request.gas ?? (await ctx.execution.estimateGas(await knownBlock(ctx, 'pending'), estimated))
  return { ...priced, gas }
}
