/** A block's transactions without the deposits that open every OP Stack block (the L1-info deposit first). */
import type { TxRecord } from '../../src/domain/types.js'
import { isUserTx } from '../../src/domain/deposit-transaction.js'

export function userTxs(block: { readonly txs: readonly TxRecord[] }): TxRecord[] {
  return block.txs.filter(isUserTx)
}
