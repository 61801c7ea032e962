/**
 * The feed's metadata receipts (X Layer sends them, Base no longer does) against the receipts re-execution
 * produced: status, cumulative gas and every log. Returns one sentence per difference (empty when they
 * agree or the feed sent none); the caller counts and logs them, and serves its own.
 */
import { bytesToHex, equalsBytes } from '@ethereumjs/util'
import { keyOf } from '../domain/block-record.js'
import type { FlashblockMetaReceipt, LogBody, ReceiptRecord, TxRecord } from '../domain/types.js'

export function compareReceipts(
  fromFeed: readonly FlashblockMetaReceipt[],
  txs: readonly TxRecord[],
  receipts: readonly ReceiptRecord[],
): string[] {
  const at = new Map(txs.map((t, i) => [keyOf(t.hash), i]))
  const problems: string[] = []
  for (const feed of fromFeed) {
    const hash = bytesToHex(feed.transactionHash)
    const i = at.get(keyOf(feed.transactionHash))
    if (i === undefined) {
      problems.push(`the feed has a receipt for ${hash}, which is not in this flashblock`)
      continue
    }
    const ours = receipts[i]
    if (feed.status !== ours.status)
      problems.push(`receipt of ${hash}: status ${feed.status} in the feed, ${ours.status} re-executed`)
    if (feed.cumulativeGasUsed !== ours.cumulativeGasUsed) {
      problems.push(
        `receipt of ${hash}: cumulative gas ${feed.cumulativeGasUsed} in the feed, ${ours.cumulativeGasUsed} re-executed`,
      )
    }
    if (!sameLogs(feed.logs, ours.logs))
      problems.push(
        `receipt of ${hash}: logs differ (${feed.logs.length} in the feed, ${ours.logs.length} re-executed)`,
      )
  }
  return problems
}

function sameLogs(a: readonly LogBody[], b: readonly LogBody[]): boolean {
  return (
    a.length === b.length &&
    a.every(
      (log, i) =>
        equalsBytes(log.address, b[i].address) &&
        equalsBytes(log.data, b[i].data) &&
        log.topics.length === b[i].topics.length &&
        log.topics.every((t, j) => equalsBytes(t, b[i].topics[j])),
    )
  )
}
