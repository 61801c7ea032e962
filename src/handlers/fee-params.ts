/**
 * Fee figures every fee method shares: the base fee of the block after the newest canonical one (what a
 * transaction sent now pays at least; the pending block's on /flashblocks, which is the same value) and
 * the oracle's suggested tip.
 */
import type { BlockRecord } from '../domain/types.js'
import { suggestTip } from '../fees/tip-oracle.js'
import { ORACLE_BLOCKS } from '../limits.js'
import type { HandlerContext } from './context.js'
import { nextBaseFee as nextBlockBaseFee } from '../opstack/base-fee.js'

export async function nextBaseFee(ctx: HandlerContext): Promise<bigint> {
  return nextBlockBaseFee((await ctx.resolver.latest()).header)
}

/** The oracle's answer per newest block: it reads only that block and its ancestors, which never change. */
const tips = new WeakMap<BlockRecord, bigint>()

export async function suggestedTip(ctx: HandlerContext): Promise<bigint> {
  const newest = await ctx.resolver.latest()
  const known = tips.get(newest)
  if (known !== undefined) return known
  // the oracle reads at most ORACLE_BLOCKS blocks back from the newest: fetch them first
  const blocks = new Map<bigint, BlockRecord | undefined>()
  const numbers: bigint[] = []
  for (let n = newest.number - 1n; n >= 0n && n > newest.number - BigInt(ORACLE_BLOCKS); n--) numbers.push(n)
  await Promise.all(numbers.map(async (n) => blocks.set(n, await ctx.resolver.block(n))))
  const tip = suggestTip(newest, (n) => blocks.get(n))
  tips.set(newest, tip)
  return tip
}
