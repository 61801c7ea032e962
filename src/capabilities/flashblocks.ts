/**
 * X Layer's flashblocks status methods (eth_flashblocksEnabled, eth_flashblocksPeerStatus): whether pending
 * state is being received, and the flashblocks peers. The embedded chain answers from its sequencer and the
 * clients of its feed, a follower from its upstream feed connection (src/feed/peer-status.ts).
 */
import type { FlashblocksPeerStatus } from '../../generated/types.js'

export interface FlashblocksStatus {
  enabled(): boolean
  /** null where there is no flashblocks peer layer (a follower without a feed), as xlayer-reth's None. */
  peerStatus(): FlashblocksPeerStatus | null
}
