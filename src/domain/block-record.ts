/**
 * Assembling a BlockRecord from a header and its executed transactions: logs get their block-wide
 * positions and the block's RLP size is computed from the raw transaction lengths (no re-encoding).
 * Used for every pending flashblock view and for every sealed block, so both look alike to readers.
 */
import type { BlockHeader } from '@ethereumjs/block'
import { bytesToHex } from '@ethereumjs/util'
import type { BlockRecord, LogRecord, ReceiptRecord, TxRecord } from '../domain/types.js'

export function assembleBlock(
  header: BlockHeader,
  hash: Uint8Array,
  txs: readonly TxRecord[],
  receipts: readonly ReceiptRecord[],
): BlockRecord {
  const logs: LogRecord[] = []
  for (let i = 0; i < receipts.length; i++) {
    const receipt = receipts[i]
    for (let j = 0; j < receipt.logs.length; j++) {
      const log = receipt.logs[j]
      logs.push({
        address: log.address,
        topics: log.topics,
        data: log.data,
        blockNumber: header.number,
        blockHash: hash,
        blockTimestamp: header.timestamp,
        transactionHash: txs[i].hash,
        transactionIndex: i,
        logIndex: receipt.firstLogIndex + j,
      })
    }
  }
  return { number: header.number, hash, header, txs, receipts, logs, size: blockSize(header, txs) }
}

/** RLP length of [header, txs, uncles=[], withdrawals=[]]: a legacy tx is an inline list, a typed one a byte string. */
export function blockSize(header: BlockHeader, txs: readonly TxRecord[]): number {
  let txPayload = 0
  // told apart by the first byte (a legacy one's is a list's), not by the decoded transaction: an old block
  // read back from history builds its transactions only when one is read
  for (const { raw } of txs) txPayload += raw[0]! >= 0xc0 ? raw.length : stringLength(raw.length)
  const withdrawals = header.withdrawalsRoot !== undefined ? 1 : 0
  const payload = headerLength(header) + listLength(txPayload) + 1 + withdrawals
  return listLength(payload)
}

/**
 * A frozen header's RLP length, by header object: a block in progress keeps its header while nothing runs
 * (four of five flashblocks of an idle chain, and the seal after them), and each of those assembled it
 * again, serializing the header each time (a sixth of an idle sequencer's RLP encoding).
 */
const headerLengths = new WeakMap<BlockHeader, number>()

function headerLength(header: BlockHeader): number {
  let length = headerLengths.get(header)
  if (length === undefined) {
    length = header.serialize().length
    // an unfrozen header may still change
    if (Object.isFrozen(header)) headerLengths.set(header, length)
  }
  return length
}

function byteLength(n: number): number {
  let len = 0
  for (; n > 0; n = Math.floor(n / 256)) len++
  return len
}

function listLength(payload: number): number {
  return payload + (payload <= 55 ? 1 : 1 + byteLength(payload))
}

function stringLength(bytes: number): number {
  return bytes + (bytes <= 55 ? 1 : 1 + byteLength(bytes))
}

/** Map key for a hash or an address. */
export function keyOf(bytes: Uint8Array): string {
  return bytesToHex(bytes)
}
