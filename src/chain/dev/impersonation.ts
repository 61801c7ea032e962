/**
 * Impersonated transactions: eth_sendTransaction from an address the dev node impersonates needs no key.
 * Every transaction travels signed (the pool, the flashblocks feed, eth_getRawTransactionByHash), so an
 * impersonated one carries a marker signature: r = the sender's address, s = 1, y-parity 0. No signer makes
 * it (s = 1 is no real signature's), its hash is the keccak of its bytes like any other's, and the bytes
 * alone name the sender: a follower of a dev node recovers it from them (follower/feed-txs.ts).
 * anvil marks its own with r = s = 1 and a hash over the bytes plus the sender, which no follower can
 * recompute; this marker keeps "hash = keccak(raw)" true. Admission (eth_sendRawTransaction) never reads
 * the marker: sent raw, such a transaction recovers to whatever ecrecover makes of it.
 */
import type { Common } from '@ethereumjs/common'
import { createTx, createTxFromRLP, type TypedTransaction } from '@ethereumjs/tx'
import { bigIntToBytes, bytesToBigInt, setLengthLeft } from '@ethereumjs/util'
import { type FilledRequest, toTxData } from '../../domain/call-request.js'
import { keyOf } from '../../domain/block-record.js'
import type { TxRecord, UserTxRecord } from '../../domain/types.js'
import { adoptCommon, callCommon } from '../../evm/chain-common.js'
import { setKnownSender } from '../../evm/patches/known-sender.js'
import { decodeTransaction } from '../pool/admission.js'

const ADDRESS_LIMIT = 1n << 160n

/** The request as an impersonated transaction of `from`, ready for the pool. */
export function impersonatedTx(request: FilledRequest & { from: Uint8Array }, common: Common): UserTxRecord {
  const r = bytesToBigInt(request.from)
  // legacy: EIP-155 v for y-parity 0; typed: the parity itself
  const v = request.type === 0 ? request.chainId * 2n + 35n : 0n
  const tx = createTx({ ...toTxData(request), v, r, s: 1n }, { common: callCommon(common), freeze: false })
  return record(tx, request.from, common)
}

/** The record of raw bytes carrying the marker signature, or undefined for any other transaction. */
export function decodeImpersonated(raw: Uint8Array, common: Common): UserTxRecord | undefined {
  // s = 1 is the encoding's last byte: most transactions are told apart without decoding
  if (raw[raw.length - 1] !== 1 || raw[0] === 0x7e) return undefined
  let tx: TypedTransaction
  try {
    tx = createTxFromRLP(raw, { common: callCommon(common), freeze: false })
  } catch {
    return undefined
  }
  const sender = markedSender(tx, common)
  return sender && record(tx, sender, common)
}

function markedSender(tx: TypedTransaction, common: Common): Uint8Array | undefined {
  const { r, s, v } = tx
  if (s !== 1n || r === undefined || r === 0n || r >= ADDRESS_LIMIT) return undefined
  const parityZero = tx.type === 0 ? v === common.chainId() * 2n + 35n : v === 0n
  return parityZero ? setLengthLeft(bigIntToBytes(r), 20) : undefined
}

function record(tx: TypedTransaction, sender: Uint8Array, common: Common): UserTxRecord {
  // runTx asks the transaction for its sender: answer the impersonated one instead of recovering
  setKnownSender(tx, sender)
  adoptCommon(tx, common)
  const raw = tx.serialize()
  return { hash: tx.hash(), tx, sender, raw }
}

/** Which addresses are impersonated (anvil_impersonateAccount, or all with anvil_autoImpersonateAccount). */
export class Impersonation {
  private readonly addresses = new Map<string, Uint8Array>()
  private auto = false

  add(address: Uint8Array): void {
    this.addresses.set(keyOf(address), address.slice())
  }

  remove(address: Uint8Array): void {
    this.addresses.delete(keyOf(address))
  }

  setAuto(enabled: boolean): void {
    this.auto = enabled
  }

  has(address: Uint8Array): boolean {
    return this.auto || this.addresses.has(keyOf(address))
  }

  list(): Uint8Array[] {
    return [...this.addresses.values()]
  }

  clear(): void {
    this.addresses.clear()
    this.auto = false
  }
}

/**
 * Bytes the chain itself published or journaled (a feed, a block, the journal): an impersonated
 * transaction by its marker, any other as admission decodes it. Never for what a client sends.
 */
export function decodeChainTx(raw: Uint8Array, common: Common): TxRecord {
  return decodeImpersonated(raw, common) ?? decodeTransaction(raw, common)
}
