import { quantity } from '../../format/hex.js'
import { knownBlock, toSelector } from '../block-param.js'
import { parseCallBlockOverrides } from '../block-overrides.js'
import { parseCallRequest } from '../parse-call-request.js'
import { parseStateOverrides } from '../parse-state-overrides.js'
import type { Handler } from '../context.js'

/**
 * eth_estimateGas [transaction, block = latest, stateOverrides?, blockOverrides?]: the least gas with which the
 * transaction succeeds (geth's binary search), on the state this endpoint names (pending flashblock state under
 * `pending` on /flashblocks) with the overrides applied to every run, as geth 1.14 and later.
 */
export const eth_estimateGas: Handler<'eth_estimateGas'> = async (
  [transaction, block, overrides, blockOverrides],
  ctx,
) => {
  const request = parseCallRequest(transaction)
  const state = overrides ? parseStateOverrides(overrides) : undefined
  const header = parseCallBlockOverrides(blockOverrides)
  const at = await knownBlock(ctx, toSelector(block))
  return quantity(await ctx.execution.estimateGas(at, request, state, header))
}
