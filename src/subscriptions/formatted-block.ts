/**
 * One block's wire forms, made on first use and shared by every kind that reacts to the same event, so a
 * transaction or receipt is formatted once however many subscriptions want it.
 */
import { formatBlock, formatHeader } from '../format/block.js'
import { formatLog, type RpcLog } from '../format/log.js'
import { formatReceipt, type RpcReceipt } from '../format/receipt.js'
import { formatTransaction, type RpcTransaction } from '../format/transaction.js'
import type { BlockRecord } from './flashblock-view.js'

export class FormattedBlock {
  private headerJson?: string
  private blockJson?: string
  private readonly txs: RpcTransaction[] = []
  private readonly receipts: RpcReceipt[] = []

  constructor(readonly record: BlockRecord) {}

  headerObject(): Record<string, unknown> {
    return formatHeader(this.record.header, this.record.hash)
  }

  /** The header as eth_getBlockByNumber reports it, without size and transactions (newHeads). */
  header(): string {
    return (this.headerJson ??= JSON.stringify(this.headerObject()))
  }

  /** The whole block with full transaction objects (newFlashblocks). */
  block(): string {
    const { header, hash, size, txs } = this.record
    return (this.blockJson ??= JSON.stringify(
      formatBlock(
        header,
        hash,
        size,
        txs.map((_, i) => this.tx(i)),
      ),
    ))
  }

  tx(i: number): RpcTransaction {
    const { tx, sender } = this.record.txs[i]!
    const { header, hash } = this.record
    return (this.txs[i] ??= formatTransaction(tx, sender, {
      blockHash: hash,
      blockNumber: header.number,
      blockTimestamp: header.timestamp,
      index: i,
      depositNonce: this.record.receipts[i]?.depositNonce,
      ...(header.baseFeePerGas !== undefined ? { baseFee: header.baseFeePerGas } : {}),
    }))
  }

  receipt(i: number): RpcReceipt {
    return (this.receipts[i] ??= formatReceipt(this.record, i))
  }

  /** The j-th log of transaction i. */
  log(i: number, j: number): RpcLog {
    return formatLog(this.record.logs[this.record.receipts[i]!.firstLogIndex + j]!)
  }
}
