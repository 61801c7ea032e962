import { data } from '../../format/hex.js'
import { toSelector } from '../block-param.js'
import { callAt, executionBlock } from '../execute.js'
import { parseTransactionRequest } from '../tx-request.js'
import type { Handler } from '../context.js'

/**
 * eth_call [transaction, block = latest, stateOverrides?]: executes on the state of the block this endpoint
 * names (the pending flashblock state under `pending` on /flashblocks). A revert answers code 3 with the
 * revert bytes (-32000 `execution reverted` when there are none), as geth.
 */
export const eth_call: Handler<'eth_call'> = async ([transaction, block, overrides], ctx) => {
  const at = executionBlock(ctx, toSelector(block))
  return data(await callAt(ctx, parseTransactionRequest(transaction), at, overrides ?? undefined))
}
