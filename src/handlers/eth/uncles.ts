/**
 * The four uncle methods. An OP-Stack L2 has no uncles (no proof of work, one sequencer), so counts are
 * 0x0 and lookups are null, as on op-geth.
 */
import type { Handler } from '../context.js'

export const eth_getUncleCountByBlockHash: Handler<'eth_getUncleCountByBlockHash'> = () => '0x0'

export const eth_getUncleCountByBlockNumber: Handler<'eth_getUncleCountByBlockNumber'> = () => '0x0'

export const eth_getUncleByBlockHashAndIndex: Handler<'eth_getUncleByBlockHashAndIndex'> = () => null

export const eth_getUncleByBlockNumberAndIndex: Handler<'eth_getUncleByBlockNumberAndIndex'> = () => null
