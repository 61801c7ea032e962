/**
 * A flashblock as the feed, the pending store and subscriptions see it: the payload fields of the raw feed
 * (diff cumulative for the block so far, transactions and receipts new in this flashblock) beside the executed
 * records, so local consumers need not re-execute.
 */
import type { BlockHeader } from '@ethereumjs/block'
import type { Flashblock, FlashblockBase, FlashblockExecution } from '../domain/types.js'

export interface FlashblockParts {
  readonly payloadId: Uint8Array
  readonly index: number
  /** Only on index 0. */
  readonly base?: FlashblockBase
  readonly number: bigint
  /** The header as if the block were sealed now, and its hash. */
  readonly header: BlockHeader
  readonly hash: Uint8Array
  readonly balances: readonly { readonly address: Uint8Array; readonly balance: bigint }[]
  readonly executed: FlashblockExecution
}

export function flashblockOf({
  payloadId,
  index,
  base,
  number,
  header,
  hash,
  balances,
  executed,
}: FlashblockParts): Flashblock {
  const { txs, receipts } = executed
  return {
    payloadId,
    index,
    ...(base ? { base } : {}),
    diff: {
      stateRoot: header.stateRoot,
      receiptsRoot: header.receiptTrie,
      logsBloom: header.logsBloom,
      gasUsed: header.gasUsed,
      blockHash: hash,
      transactions: txs.map((t) => t.raw),
      withdrawals: [],
      withdrawalsRoot: header.withdrawalsRoot!,
      blobGasUsed: header.blobGasUsed,
    },
    metadata: {
      blockNumber: number,
      newAccountBalances: balances,
      receipts: receipts.map((r, i) => ({
        transactionHash: txs[i].hash,
        txType: r.type,
        status: r.status,
        cumulativeGasUsed: r.cumulativeGasUsed,
        logs: r.logs,
        ...(r.depositNonce !== undefined ? { depositNonce: r.depositNonce } : {}),
      })),
    },
    executed,
  }
}
