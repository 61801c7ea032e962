/**
 * The four uncle methods. An OP-Stack L2 has no uncles (no proof of work, one sequencer): a known block
 * counts 0x0 and lookups are null, as on op-geth; the count of a block this endpoint does not know is null.
 */
import { quantity, parseData } from '../../format/hex.js'
import { lookupBlock } from '../block-param.js'
import type { Handler } from '../context.js'

export const eth_getUncleCountByBlockHash: Handler<'eth_getUncleCountByBlockHash'> = async ([hash], ctx) =>
  (await ctx.resolver.blockByHash(parseData(hash))) ? quantity(0) : null

export const eth_getUncleCountByBlockNumber: Handler<'eth_getUncleCountByBlockNumber'> = async ([block], ctx) =>
  (await lookupBlock(ctx, block)) ? quantity(0) : null

export const eth_getUncleByBlockHashAndIndex: Handler<'eth_getUncleByBlockHashAndIndex'> = () => null

export const eth_getUncleByBlockNumberAndIndex: Handler<'eth_getUncleByBlockNumberAndIndex'> = () => null
