import { createTx, type TypedTxData } from '@ethereumjs/tx'
import { bigIntToHex, bytesToHex } from '@ethereumjs/util'
import { InvalidInputError } from '../../errors.js'
import { data } from '../../format/hex.js'
import { unlockedAccount } from '../dev-accounts.js'
import { estimateGasFor } from '../execute.js'
import { nextBaseFee, suggestedTip } from '../fee-params.js'
import { parseTransactionRequest, type TransactionRequest } from '../tx-request.js'
import type { Handler, HandlerContext } from '../context.js'

/**
 * eth_sendTransaction from an unlocked dev account: fills what the request leaves out as geth's
 * SetDefaults does — nonce (pending, pool included), fees (maxFeePerGas = 2 * next base fee + tip, tip =
 * eth_maxPriorityFeePerGas; gasPrice = eth_gasPrice for legacy), gas (eth_estimateGas at `pending`),
 * chain id, type 2 unless a gasPrice or an authorization list says otherwise — signs with the dev key and
 * submits the bytes like eth_sendRawTransaction, so the pool answers with the same texts.
 */
export const eth_sendTransaction: Handler<'eth_sendTransaction'> = async ([wire], ctx) => {
  const request = parseTransactionRequest(wire)
  const account = unlockedAccount(ctx, request.from ? bytesToHex(request.from) : '0x0000000000000000000000000000000000000000')
  const chainId = ctx.chain.chainId
  if (request.chainId !== undefined && request.chainId !== chainId) {
    throw new InvalidInputError(`chainId does not match node's (have=${request.chainId}, want=${chainId})`)
  }
  const filled = await fillDefaults(ctx, { ...request, from: account.address, chainId })
  const tx = createTx(toTxData(filled), { common: ctx.chain.common }).sign(account.privateKey)
  return data(await ctx.chain.sendRawTransaction(tx.serialize()))
}

function txType(request: TransactionRequest): number {
  if (request.type !== undefined) return request.type
  if (request.authorizationList) return 4
  if (request.gasPrice !== undefined) return request.accessList ? 1 : 0
  return 2
}

async function fillDefaults(ctx: HandlerContext, request: TransactionRequest & { from: Uint8Array; chainId: bigint }) {
  const type = txType(request)
  const nonce = request.nonce ?? (await ctx.resolver.pendingNonce(request.from))
  const fees: Partial<TransactionRequest> = {}
  if (type < 2) {
    fees.gasPrice = request.gasPrice ?? nextBaseFee(ctx) + suggestedTip(ctx)
  } else {
    fees.maxPriorityFeePerGas = request.maxPriorityFeePerGas ?? suggestedTip(ctx)
    fees.maxFeePerGas = request.maxFeePerGas ?? 2n * nextBaseFee(ctx) + fees.maxPriorityFeePerGas
  }
  const priced = { ...request, ...fees, type, nonce }
  const gas = request.gas ?? (await estimateGasFor(ctx, priced, 'pending'))
  return { ...priced, gas }
}

function toTxData(r: TransactionRequest & { type: number; nonce: bigint; gas: bigint; chainId: bigint }): TypedTxData {
  return {
    type: r.type,
    chainId: r.chainId,
    nonce: r.nonce,
    gasLimit: r.gas,
    to: r.to,
    value: r.value ?? 0n,
    data: r.data ?? new Uint8Array(),
    ...(r.type < 2 ? { gasPrice: r.gasPrice } : { maxFeePerGas: r.maxFeePerGas, maxPriorityFeePerGas: r.maxPriorityFeePerGas }),
    ...(r.type >= 1 ? { accessList: (r.accessList ?? []).map((e) => ({ address: bytesToHex(e.address), storageKeys: e.storageKeys.map(bytesToHex) })) } : {}),
    ...(r.type === 4 ? {
      authorizationList: (r.authorizationList ?? []).map((a) => ({
        chainId: bigIntToHex(a.chainId), address: bytesToHex(a.address), nonce: bigIntToHex(a.nonce),
        yParity: bigIntToHex(a.yParity), r: bigIntToHex(a.r), s: bigIntToHex(a.s),
      })),
    } : {}),
  } as TypedTxData
}
