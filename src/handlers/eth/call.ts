import { data } from '../../format/hex.js'
import { knownBlock, toSelector } from '../block-param.js'
import { parseStateOverrides } from '../state-overrides.js'
import { parseCallRequest } from '../call-request.js'
import type { Handler } from '../context.js'

/**
 * eth_call [transaction, block = latest, stateOverrides?]: executes on the state of the block this endpoint
 * names (the pending flashblock state under `pending` on /flashblocks). A revert answers code 3 with the
 * revert bytes (-32000 `execution reverted` when there are none), as geth.
 */
export const eth_call: Handler<'eth_call'> = async ([transaction, block, overrides], ctx) => {
  const at = await knownBlock(ctx, toSelector(block))
  return data(
    await ctx.execution.call(at, parseCallRequest(transaction), overrides ? parseStateOverrides(overrides) : undefined),
  )
}
