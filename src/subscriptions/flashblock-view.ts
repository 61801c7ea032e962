/**
 * What the subscription kinds read: the chain's records (src/domain/types.ts). A flashblock is seen as the
 * pending block accumulated so far plus where its new transactions start; events.ts builds these.
 */
import type { BlockRecord } from '../domain/types.js'

export type { BlockRecord }

/** The pending block after a flashblock; transactions from `firstNewTx` on arrived with this flashblock. */
export interface FlashblockView {
  block: BlockRecord
  index: number
  firstNewTx: number
}
