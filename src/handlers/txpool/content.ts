import { bytesToHex, toChecksumAddress } from '@ethereumjs/util'
import type { UserTxRecord as TxRecord } from '../../domain/types.js'
import { formatTransaction, type RpcTransaction } from '../../format/transaction.js'
import type { Handler } from '../context.js'

type BySender = Record<string, Record<string, RpcTransaction>>

/**
 * txpool_content: the pool as geth shows it: executable (`pending`) and waiting-for-a-nonce-gap (`queued`)
 * transactions, keyed by checksummed sender and then by decimal nonce, block fields null.
 */
export const txpool_content: Handler<'txpool_content'> = async (_params, ctx) => {
  const content = await ctx.submit.poolContent()
  const group = (entries: readonly { sender: Uint8Array; txs: readonly TxRecord[] }[]): BySender => {
    const out: BySender = {}
    for (const { sender, txs } of entries) {
      const byNonce: Record<string, RpcTransaction> = {}
      for (const record of txs) byNonce[record.tx.nonce.toString()] = formatTransaction(record.tx, record.sender)
      out[toChecksumAddress(bytesToHex(sender))] = byNonce
    }
    return out
  }
  return { pending: group(content.pending), queued: group(content.queued) }
}
