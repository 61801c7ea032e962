/** A transaction as the pool holds it: the record plus the fee caps and arrival order it is sorted by. */
import type { UserTxRecord as TxRecord } from '../../domain/types.js'

export interface PoolEntry {
  readonly record: TxRecord
  /** Arrival order; ties in price go to the earlier transaction, as geth does. */
  readonly seq: number
  readonly nonce: bigint
  /** maxFeePerGas, or gasPrice for types 0/1. */
  readonly feeCap: bigint
  /** maxPriorityFeePerGas, or gasPrice for types 0/1. */
  readonly tipCap: bigint
}

export function poolEntry(record: TxRecord, seq: number): PoolEntry {
  const tx = record.tx
  const feeCap = 'maxFeePerGas' in tx ? tx.maxFeePerGas : (tx as { gasPrice: bigint }).gasPrice
  const tipCap = 'maxPriorityFeePerGas' in tx ? tx.maxPriorityFeePerGas : feeCap
  return { record, seq, nonce: tx.nonce, feeCap, tipCap }
}

/** What the sequencer earns per gas at this base fee (negative: cannot be included yet). */
export function effectiveTip(entry: PoolEntry, baseFee: bigint): bigint {
  const headroom = entry.feeCap - baseFee
  return entry.tipCap < headroom ? entry.tipCap : headroom
}
