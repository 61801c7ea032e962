import type { Handler } from '../context.js'

/** eth_protocolVersion: the spec says "zero"; as a quantity that is 0x0 (no devp2p here). */
export const eth_protocolVersion: Handler<'eth_protocolVersion'> = () => '0x0'
