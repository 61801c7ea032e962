import { data, quantity } from '../../format/hex.js'
import type { Handler } from '../context.js'

const RESOURCES = ['state', 'tx', 'logs', 'receipts', 'blocks', 'stateproofs'] as const

/**
 * eth_capabilities (geth's, for routers): the head and what history is served. Nothing is pruned (a
 * follower reaches anything older through its upstream), so every resource is served from genesis.
 */
export const eth_capabilities: Handler<'eth_capabilities'> = async (_params, ctx) => {
  const head = await ctx.resolver.latest()
  const served = { disabled: false, oldestBlock: quantity(0n) }
  return {
    head: { number: quantity(head.number), hash: data(head.hash) },
    ...(Object.fromEntries(RESOURCES.map((name) => [name, served])) as Record<
      (typeof RESOURCES)[number],
      typeof served
    >),
  }
}
