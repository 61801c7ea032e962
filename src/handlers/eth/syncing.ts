import type { Handler } from '../context.js'

/** eth_syncing: the embedded sequencer is the chain's head, so it is never behind. */
export const eth_syncing: Handler<'eth_syncing'> = () => false
