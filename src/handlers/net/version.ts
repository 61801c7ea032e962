import type { Handler } from '../context.js'

/** net_version: the network id, in decimal (geth); on OP-Stack chains it equals the chain id. */
export const net_version: Handler<'net_version'> = (_params, ctx) => String(ctx.config.chainId)
