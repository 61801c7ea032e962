/**
 * Fee figures every fee method shares: the base fee of the block after the newest canonical one (what a
 * transaction sent now pays at least; the pending block's on /flashblocks, which is the same value) and
 * the oracle's suggested tip.
 */
import { suggestTip } from '../fees/tip-oracle.js'
import type { HandlerContext } from './context.js'

export function nextBaseFee(ctx: HandlerContext): bigint {
  return ctx.resolver.latest().header.calcNextBaseFee()
}

export function suggestedTip(ctx: HandlerContext): bigint {
  return suggestTip(ctx.resolver.latest(), (n) => ctx.resolver.block(n))
}
