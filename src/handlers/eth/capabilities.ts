import { data, quantity } from '../../format/hex.js'
import type { Handler } from '../context.js'

const RESOURCES = ['state', 'tx', 'logs', 'receipts', 'blocks', 'stateproofs'] as const
const STATE = new Set<string>(['state', 'stateproofs'])

/**
 * eth_capabilities (geth's, for routers): the head and what history is served. Blocks, transactions,
 * receipts and logs are never pruned (a follower reaches anything older through its upstream); state is
 * the last --history blocks' (in memory 128 by default), and state proofs with it.
 */
export const eth_capabilities: Handler<'eth_capabilities'> = async (_params, ctx) => {
  const head = await ctx.resolver.latest()
  const served = { disabled: false, oldestBlock: quantity(0n) }
  const state = { disabled: false, oldestBlock: quantity(ctx.resolver.oldestState?.() ?? 0n) }
  return {
    head: { number: quantity(head.number), hash: data(head.hash) },
    ...(Object.fromEntries(RESOURCES.map((name) => [name, STATE.has(name) ? state : served])) as Record<
      (typeof RESOURCES)[number],
      typeof served
    >),
  }
}
