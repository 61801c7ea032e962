/**
 * Receipts on the wire, shaped like geth's MarshalReceipt: position, gas, fees, logs and bloom, status
 * (or, before Byzantium, the state root), blob gas, the contract created, and the EIP-2718 type. A preconfirmed
 * receipt carries the pending block's number and its hash as of the flashblock that holds it, because its
 * block record is the pending block as of that flashblock.
 */
import type { BlockRecord } from '../domain/types.js'
import { FORMATTED_RECEIPT_BLOCKS } from '../limits.js'
import { type RpcLog, formatLog } from './log.js'
import { address, data, quantity, type Hex } from './hex.js'
import { depositReceiptFields } from './deposit.js'
import { opReceiptFields } from './op-receipt.js'

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
  /** Byzantium on; before it the receipt carries `root`, the state root after the transaction. */
  status?: Hex
  root?: Hex
  blobGasUsed?: Hex
  blobGasPrice?: Hex
  to: Hex | null
  transactionHash: Hex
  transactionIndex: Hex
  type: Hex
}

/**
 * Receipts as formatted for the newest block records asked about: a receipt is polled for until it shows,
 * then read again by every client that sent or watches the transaction. Records are never changed once
 * made (a flashblock makes a new pending record), so a formatted receipt stays right; frozen, as it is shared.
 */
const recent = new Map<BlockRecord, RpcReceipt[]>()

/** The receipt of the `index`-th transaction of `block`. */
export function formatReceipt(block: BlockRecord, index: number): RpcReceipt {
  let receipts = recent.get(block)
  if (!receipts) {
    recent.set(block, (receipts = []))
    if (recent.size > FORMATTED_RECEIPT_BLOCKS) recent.delete(recent.keys().next().value!)
  }
  return (receipts[index] ??= Object.freeze(build(block, index)))
}

function build(block: BlockRecord, index: number): RpcReceipt {
  const { tx, sender, hash } = block.txs[index]!
  const receipt = block.receipts[index]!
  const logs = block.logs.slice(receipt.firstLogIndex, receipt.firstLogIndex + receipt.logs.length)
  return {
    blockHash: data(block.hash),
    blockNumber: quantity(block.number),
    contractAddress: receipt.contractAddress ? address(receipt.contractAddress) : null,
    cumulativeGasUsed: quantity(receipt.cumulativeGasUsed),
    effectiveGasPrice: quantity(receipt.effectiveGasPrice),
    from: address(sender),
    gasUsed: quantity(receipt.gasUsed),
    logs: logs.map((log) => formatLog(log)),
    logsBloom: data(receipt.logsBloom),
    ...(receipt.root ? { root: data(receipt.root) } : { status: quantity(receipt.status) }),
    to: tx.to ? address(tx.to.bytes) : null,
    transactionHash: data(hash),
    transactionIndex: quantity(index),
    type: quantity(receipt.type),
    ...(receipt.blobGasUsed !== undefined
      ? { blobGasUsed: quantity(receipt.blobGasUsed), blobGasPrice: quantity(receipt.blobGasPrice ?? 0n) }
      : {}),
    ...(receipt.op ? opReceiptFields(receipt.op) : {}),
    ...(receipt.depositNonce !== undefined ? depositReceiptFields({ depositNonce: receipt.depositNonce }) : {}),
  }
}
