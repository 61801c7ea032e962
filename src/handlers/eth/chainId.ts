import { quantity } from '../../format/hex.js'
import type { Handler } from '../context.js'

/** eth_chainId: EIP-695, the chain id as a hex quantity (0xc4 mainnet, 0x7a0 testnet). */
export const eth_chainId: Handler<'eth_chainId'> = (_params, ctx) => quantity(ctx.config.chainId)
