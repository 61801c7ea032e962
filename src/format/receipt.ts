/**
 * Receipts on the wire, shaped like geth's MarshalReceipt: position, gas, fees, logs and bloom, status
 * (post-Byzantium, so never a state root), the contract created, and the EIP-2718 type. A preconfirmed
 * receipt carries the pending block's number and its hash as of the flashblock that holds it.
 */
import type { TypedTransaction } from '@ethereumjs/tx'
import { type LogBody, type RpcLog, formatLog } from './log.js'
import { address, data, quantity, type Hex } from './hex.js'
import { effectiveGasPrice } from './transaction.js'

/** What execution decided about one transaction. */
export type ReceiptBody = {
  status: 0 | 1
  gasUsed: bigint
  cumulativeGasUsed: bigint
  logsBloom: Uint8Array
  logs: readonly LogBody[]
  contractAddress?: Uint8Array
}

/** Where the receipt's transaction sits; `firstLogIndex` is the block-wide index of its first log. */
export type ReceiptPosition = {
  blockHash: Uint8Array
  blockNumber: bigint
  blockTimestamp?: bigint
  baseFee?: bigint
  transactionIndex: number
  firstLogIndex: number
}

export type RpcReceipt = {
  blockHash: Hex
  blockNumber: Hex
  contractAddress: Hex | null
  cumulativeGasUsed: Hex
  effectiveGasPrice: Hex
  from: Hex
  gasUsed: Hex
  logs: RpcLog[]
  logsBloom: Hex
  status: Hex
  to: Hex | null
  transactionHash: Hex
  transactionIndex: Hex
  type: Hex
}

export function formatReceipt(
  tx: TypedTransaction,
  from: Uint8Array,
  receipt: ReceiptBody,
  position: ReceiptPosition,
): RpcReceipt {
  const txHash = tx.hash()
  return {
    blockHash: data(position.blockHash),
    blockNumber: quantity(position.blockNumber),
    contractAddress: receipt.contractAddress ? address(receipt.contractAddress) : null,
    cumulativeGasUsed: quantity(receipt.cumulativeGasUsed),
    effectiveGasPrice: quantity(effectiveGasPrice(tx, position.baseFee)),
    from: address(from),
    gasUsed: quantity(receipt.gasUsed),
    logs: receipt.logs.map((log, i) =>
      formatLog(log, {
        blockHash: position.blockHash,
        blockNumber: position.blockNumber,
        ...(position.blockTimestamp !== undefined ? { blockTimestamp: position.blockTimestamp } : {}),
        transactionHash: txHash,
        transactionIndex: position.transactionIndex,
        logIndex: position.firstLogIndex + i,
      }),
    ),
    logsBloom: data(receipt.logsBloom),
    status: quantity(receipt.status),
    to: tx.to ? address(tx.to.bytes) : null,
    transactionHash: data(txHash),
    transactionIndex: quantity(position.transactionIndex),
    type: quantity(tx.type),
  }
}
