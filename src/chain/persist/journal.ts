/**
 * A flashblock journal record: the block's parameters (so the block in progress can be opened again
 * exactly as it was) and the raw transactions new in that flashblock, in order. One record per
 * flashblock, written before the flashblock is published; the block's records go when it is sealed.
 */
import { RLP } from '@ethereumjs/rlp'
import { bigIntToUnpaddedBytes, bytesToBigInt } from '@ethereumjs/util'
import type { BlockParams } from '../../evm/flash-builder.js'

export interface JournalRecord {
  readonly number: bigint
  readonly index: number
  readonly params: Omit<BlockParams, 'opFees'>
  readonly transactions: readonly Uint8Array[]
}

export function encodeJournalRecord(record: JournalRecord): Uint8Array {
  const { params } = record
  return RLP.encode([
    bigIntToUnpaddedBytes(record.number),
    bigIntToUnpaddedBytes(BigInt(record.index)),
    params.payloadId,
    bigIntToUnpaddedBytes(params.timestamp),
    params.prevRandao,
    params.coinbase,
    [...record.transactions],
  ])
}

export function decodeJournalRecord(bytes: Uint8Array): JournalRecord {
  const [number, index, payloadId, timestamp, prevRandao, coinbase, transactions] = RLP.decode(bytes) as Uint8Array[]
  return {
    number: bytesToBigInt(number),
    index: Number(bytesToBigInt(index)),
    params: { payloadId, timestamp: bytesToBigInt(timestamp), prevRandao, coinbase },
    transactions: transactions as unknown as Uint8Array[],
  }
}

/**
 * The records of one block that can be replayed: indexes 0, 1, 2, ... without a gap, all with the same
 * payload. A record after a gap cannot have been published (each is written before its flashblock goes
 * out, in order), so it and everything after it are ignored.
 */
export function replayable(records: readonly JournalRecord[]): JournalRecord[] {
  const out: JournalRecord[] = []
  for (const record of records) {
    if (record.index !== out.length) break
    if (out.length && !equal(record.params.payloadId, out[0].params.payloadId)) break
    out.push(record)
  }
  return out
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i])
}
