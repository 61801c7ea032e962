import type { Handler } from '../context.js'

/** eth_flashblocksEnabled (X Layer): true while pending state is being received. */
export const eth_flashblocksEnabled: Handler<'eth_flashblocksEnabled'> = (_params, ctx) => ctx.flashblocks.enabled()

/** eth_flashblocksPeerStatus (X Layer): the flashblocks peers, or null without a peer layer. */
export const eth_flashblocksPeerStatus: Handler<'eth_flashblocksPeerStatus'> = (_params, ctx) =>
  ctx.flashblocks.peerStatus()
