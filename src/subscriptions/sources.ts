/**
 * What the subscription kinds read: the chain's records (src/chain/types.ts). A flashblock is seen as the
 * pending block accumulated so far plus where its new transactions start; events.ts builds these.
 */
import type { BlockRecord, TxRecord } from '../domain/types.js'

export type { BlockRecord, TxRecord }

/** The pending block after a flashblock; transactions from `firstNewTx` on arrived with this flashblock. */
export interface FlashblockView {
  block: BlockRecord
  index: number
  firstNewTx: number
}
