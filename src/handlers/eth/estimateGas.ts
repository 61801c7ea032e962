import { quantity } from '../../format/hex.js'
import { toSelector } from '../block-param.js'
import { estimateGasFor } from '../execute.js'
import { parseTransactionRequest } from '../tx-request.js'
import type { Handler } from '../context.js'

/**
 * eth_estimateGas [transaction, block = latest]: the least gas with which the transaction succeeds (geth's
 * binary search), on the state this endpoint names (pending flashblock state under `pending` on /flashblocks).
 */
export const eth_estimateGas: Handler<'eth_estimateGas'> = async ([transaction, block], ctx) =>
  quantity(await estimateGasFor(ctx, parseTransactionRequest(transaction), toSelector(block)))
