import { andThen } from '../../capabilities/eventually.js'
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
export const eth_call: Handler<'eth_call'> = ([transaction, block, overrides, blockOverrides], ctx) => {
  const request = parseCallRequest(transaction)
  const state = overrides ? parseStateOverrides(overrides) : undefined
  const header = parseCallBlockOverrides(blockOverrides)
  // without a promise when the answer is kept or the run's reads are all in memory
  const output = andThen(knownBlock(ctx, toSelector(block)), (at) => ctx.execution.call(at, request, state, header))
  return andThen(output, data)
}
