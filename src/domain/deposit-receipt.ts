/**
 * A deposit receipt's consensus encoding (what the receipts root commits to), as op-geth's
 * depositReceiptRLP after Canyon: `0x7e || rlp([status, cumulativeGasUsed, bloom, logs, depositNonce,
 * depositReceiptVersion])`. @ethereumjs's encodeReceipt knows only the four common fields.
 */
import { RLP } from '@ethereumjs/rlp'
import { bigIntToUnpaddedBytes } from '@ethereumjs/util'
import { DEPOSIT_TX_TYPE } from './deposit-encoding.js'

/** Since Canyon every deposit receipt carries this version. */
export const DEPOSIT_RECEIPT_VERSION = 1n

export interface DepositReceiptFields {
  status: 0 | 1
  cumulativeGasUsed: bigint
  logsBloom: Uint8Array
  logs: readonly { address: Uint8Array; topics: readonly Uint8Array[]; data: Uint8Array }[]
  depositNonce: bigint
}

export function encodeDepositReceipt(r: DepositReceiptFields): Uint8Array {
  const body = RLP.encode([
    r.status === 1 ? Uint8Array.of(1) : new Uint8Array(),
    bigIntToUnpaddedBytes(r.cumulativeGasUsed),
    r.logsBloom,
    r.logs.map((l) => [l.address, [...l.topics], l.data]),
    bigIntToUnpaddedBytes(r.depositNonce),
    bigIntToUnpaddedBytes(DEPOSIT_RECEIPT_VERSION),
  ])
  const out = new Uint8Array(body.length + 1)
  out[0] = DEPOSIT_TX_TYPE
  out.set(body, 1)
  return out
}
