import type { Handler } from '../context.js'

/** eth_getCompilers: always empty; no node compiles Solidity since geth 1.6. */
export const eth_getCompilers: Handler<'eth_getCompilers'> = () => []
