import { bytesToHex, toChecksumAddress } from '@ethereumjs/util'
import { keyOf } from '../../domain/block-record.js'
import type { UserTxRecord as TxRecord } from '../../domain/types.js'
import { parseData, quantity } from '../../format/hex.js'
import { formatTransaction, type RpcTransaction } from '../../format/transaction.js'
import type { Handler } from '../context.js'

type ByNonce = Record<string, RpcTransaction>
type Section = readonly { sender: Uint8Array; txs: readonly TxRecord[] }[]

/** One sender's transactions keyed by decimal nonce, as geth. */
function byNonce(txs: readonly TxRecord[]): ByNonce {
  const out: ByNonce = {}
  for (const record of txs) out[record.tx.nonce.toString()] = formatTransaction(record.tx, record.sender)
  return out
}

/**
 * txpool_content: the pool as geth shows it: executable (`pending`) and waiting-for-a-nonce-gap (`queued`)
 * transactions, keyed by checksummed sender and then by decimal nonce, block fields null.
 */
export const txpool_content: Handler<'txpool_content'> = async (_params, ctx) => {
  const content = await ctx.submit.poolContent()
  const group = (section: Section): Record<string, ByNonce> =>
    Object.fromEntries(section.map(({ sender, txs }) => [toChecksumAddress(bytesToHex(sender)), byNonce(txs)]))
  return { pending: group(content.pending), queued: group(content.queued) }
}

/** txpool_contentFrom: one sender's part of txpool_content (both sections empty when it has nothing pooled). */
export const txpool_contentFrom: Handler<'txpool_contentFrom'> = async ([address], ctx) => {
  const content = await ctx.submit.poolContent()
  const sender = keyOf(parseData(address))
  const of = (section: Section): ByNonce => byNonce(section.find((s) => keyOf(s.sender) === sender)?.txs ?? [])
  return { pending: of(content.pending), queued: of(content.queued) }
}

/** txpool_status: how many transactions are executable and how many wait for a nonce gap. */
export const txpool_status: Handler<'txpool_status'> = async (_params, ctx) => {
  const content = await ctx.submit.poolContent()
  const count = (section: Section) => quantity(BigInt(section.reduce((n, s) => n + s.txs.length, 0)))
  return { pending: count(content.pending), queued: count(content.queued) }
}
