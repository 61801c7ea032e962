import { data } from '../../format/hex.js'
import { knownBlock, toSelector } from '../block-param.js'
import { parseCallBlockOverrides } from '../block-overrides.js'
import { parseStateOverrides } from '../parse-state-overrides.js'
import { parseCallRequest } from '../parse-call-request.js'
import type { Handler } from '../context.js'

/**
 * eth_call [transaction, block = latest, stateOverrides?, blockOverrides?]: executes on the state of the block
 * this endpoint names (the pending flashblock state under `pending` on /flashblocks), under that block's header
 * with the overridden fields. A revert answers code 3 with the revert bytes (-32000 `execution reverted` when
 * there are none), as geth.
 */
export const eth_call: Handler<'eth_call'> = async ([transaction, block, overrides, blockOverrides], ctx) => {
  const request = parseCallRequest(transaction)
  const state = overrides ? parseStateOverrides(overrides) : undefined
  const header = parseCallBlockOverrides(blockOverrides)
  const at = await knownBlock(ctx, toSelector(block))
  return data(await ctx.execution.call(at, request, state, header))
}
