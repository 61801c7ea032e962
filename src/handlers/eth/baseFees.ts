import { quantity } from '../../format/hex.js'
import { nextBaseFee } from '../fee-params.js'
import type { Handler } from '../context.js'

/** eth_blobBaseFee: the blob gas price of the latest block's excess blob gas, as geth; null before Cancun. */
export const eth_blobBaseFee: Handler<'eth_blobBaseFee'> = async (_params, ctx) => {
  const { header } = await ctx.resolver.latest()
  return header.excessBlobGas === undefined ? null : quantity(header.getBlobGasPrice())
}

/** eth_baseFee: the base fee of the block after the latest (geth's; the floor of eth_gasPrice). */
export const eth_baseFee: Handler<'eth_baseFee'> = async (_params, ctx) => quantity(await nextBaseFee(ctx))
