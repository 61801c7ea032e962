import { quantity } from '../../format/hex.js'
import type { Handler } from '../context.js'

/**
 * eth_blockNumber: the canonical height. X Layer's flashblocks endpoint also takes `["pending"]` and then
 * answers the pending height; the resolver makes that the canonical height on the general endpoint.
 */
export const eth_blockNumber: Handler<'eth_blockNumber'> = async (params, ctx) =>
  quantity(await ctx.resolver.blockNumber(params?.[0] === 'pending' ? 'pending' : 'latest'))
