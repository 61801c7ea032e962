import { quantity } from '../../format/hex.js'
import { nextBaseFee, suggestedTip } from '../fee-params.js'
import type { Handler } from '../context.js'

/** eth_gasPrice: the next block's base fee plus the suggested tip — a legacy price that gets included. */
export const eth_gasPrice: Handler<'eth_gasPrice'> = async (_params, ctx) =>
  quantity((await nextBaseFee(ctx)) + (await suggestedTip(ctx)))
