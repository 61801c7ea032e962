import { quantity } from '../../format/hex.js'
import { knownBlock, toSelector } from '../block-param.js'
import { parseCallRequest } from '../call-request.js'
import type { Handler } from '../context.js'

/**
 * eth_estimateGas [transaction, block = latest]: the least gas with which the transaction succeeds (geth's
 * binary search), on the state this endpoint names (pending flashblock state under `pending` on /flashblocks).
 */
export const eth_estimateGas: Handler<'eth_estimateGas'> = async ([transaction, block], ctx) => {
  const request = parseCallRequest(transaction)
  return quantity(await ctx.execution.estimateGas(await knownBlock(ctx, toSelector(block)), request))
}
