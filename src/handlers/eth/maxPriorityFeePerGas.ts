import { quantity } from '../../format/hex.js'
import { suggestedTip } from '../fee-params.js'
import type { Handler } from '../context.js'

/** eth_maxPriorityFeePerGas: the oracle's tip (src/fees/tip-oracle.ts); 1 gwei on an idle chain. */
export const eth_maxPriorityFeePerGas: Handler<'eth_maxPriorityFeePerGas'> = async (_params, ctx) =>
  quantity(await suggestedTip(ctx))
