/**
 * A feed frame's (or an upstream block's) transactions as TxRecords. Sender recovery (a native ecrecover per transaction) is about
 * a third of re-executing a flashblock of transfers; a transaction this follower forwarded was decoded when
 * it was sent, and the same bytes decode to the same (frozen) record, so that record is taken instead.
 */
import type { Common } from '@ethereumjs/common'
import { equalsBytes } from '@ethereumjs/util'
import { keccak256 } from '../evm/crypto.js'
import { decodeChainTx } from '../chain/dev/impersonation.js'
import type { TxRecord } from '../domain/types.js'

/** Records already decoded here, by transaction hash (the forwarded transactions). */
export type KnownTxs = (hash: Uint8Array) => TxRecord | undefined

/** Throws what decodeTransaction throws; a dev node's impersonated transaction decodes by its marker signature. */
export function decodeFeedTx(raw: Uint8Array, common: Common, known: KnownTxs | undefined): TxRecord {
  // a transaction's hash is the keccak of its encoding, for every type (deposits too)
  const record = known?.(keccak256(raw))
  return record && equalsBytes(record.raw, raw) ? record : decodeChainTx(raw, common)
}
