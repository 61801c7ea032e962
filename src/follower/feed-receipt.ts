/**
 * A feed frame's metadata receipts (status, cumulative gas, logs; a deposit's nonce) completed into the
 * ReceiptRecords re-execution would make, from what the frame and its transactions tell: gas used from the
 * cumulative difference, the effective gas price from the block's base fee, the bloom from the logs, the
 * created address from the sender's nonce. The OP Stack fee fields (L1 fee, operator fee) need the L1Block
 * contract's state, so they come with re-execution only.
 */
import type { Common } from '@ethereumjs/common'
import { Address, createContractAddress } from '@ethereumjs/util'
import { Bloom } from '@ethereumjs/vm'
import { keyOf } from '../domain/block-record.js'
import { effectiveGasPrice } from '../domain/gas-price.js'
import type { FlashblockMetaReceipt, ReceiptRecord, TxRecord } from '../domain/types.js'
import { isUserTx } from '../domain/deposit-transaction.js'

/** Where the block stands before the frame's first transaction. */
export interface ReceiptCursor {
  readonly cumulativeGasUsed: bigint
  readonly logCount: number
}

/** The receipts of `txs` in their order, or undefined when the frame lacks one of them. */
export function receiptsFromFeed(
  txs: readonly TxRecord[],
  fromFeed: readonly FlashblockMetaReceipt[],
  cursor: ReceiptCursor,
  baseFee: bigint,
  common: Common,
): ReceiptRecord[] | undefined {
  const byHash = new Map(fromFeed.map((r) => [keyOf(r.transactionHash), r]))
  let { cumulativeGasUsed: gasBefore, logCount } = cursor
  const out: ReceiptRecord[] = []
  for (const record of txs) {
    const feed = byHash.get(keyOf(record.hash))
    if (!feed) return undefined
    const deposit = !isUserTx(record)
    const bloom = new Bloom(undefined, common)
    for (const log of feed.logs) {
      bloom.add(log.address)
      for (const topic of log.topics) bloom.add(topic)
    }
    // a deposit's creation takes its address from the nonce the receipt reports (tx.nonce is a user tx's)
    const nonce = deposit ? feed.depositNonce : (record.tx as { nonce: bigint }).nonce
    out.push({
      type: record.tx.type,
      status: feed.status,
      gasUsed: feed.cumulativeGasUsed - gasBefore,
      cumulativeGasUsed: feed.cumulativeGasUsed,
      effectiveGasPrice: isUserTx(record) ? effectiveGasPrice(record.tx, baseFee) : 0n,
      logsBloom: bloom.bitvector,
      logs: feed.logs,
      ...(record.tx.to === undefined && nonce !== undefined
        ? { contractAddress: createContractAddress(new Address(record.sender), nonce).bytes }
        : {}),
      firstLogIndex: logCount,
      ...(feed.depositNonce !== undefined ? { depositNonce: feed.depositNonce } : {}),
    })
    gasBefore = feed.cumulativeGasUsed
    logCount += feed.logs.length
  }
  return out
}
