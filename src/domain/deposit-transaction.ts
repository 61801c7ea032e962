/**
 * A deposit as the chain's transaction records hold it, beside @ethereumjs's TypedTransaction (which has no
 * type 0x7e): the fields every reader of a TxRecord uses (type, hash, bytes, to, value, data, gas limit)
 * under the same names, so block, receipt, feed and trie code reads a deposit like any transaction, and
 * `isDeposit` narrows where the two must differ (execution, signatures, fees, JSON).
 */
import type { TypedTransaction } from '@ethereumjs/tx'
import { Address } from '@ethereumjs/util'
import { DEPOSIT_TX_TYPE, type DepositTx, decodeDeposit, depositHash, encodeDeposit } from './deposit-encoding.js'

export class DepositTransaction {
  readonly type = DEPOSIT_TX_TYPE
  readonly to: Address | undefined
  readonly value: bigint
  readonly data: Uint8Array
  readonly gasLimit: bigint
  private readonly bytes: Uint8Array
  private readonly txHash: Uint8Array

  /** `raw`: the bytes as received, when decoded from the wire (hashed as they are). */
  constructor(
    readonly deposit: DepositTx,
    raw?: Uint8Array,
  ) {
    this.bytes = raw ?? encodeDeposit(deposit)
    this.txHash = depositHash(this.bytes)
    this.to = deposit.to ? new Address(deposit.to) : undefined
    this.value = deposit.value
    this.data = deposit.data
    this.gasLimit = deposit.gas
  }

  static fromBytes(raw: Uint8Array): DepositTransaction {
    return new DepositTransaction(decodeDeposit(raw), raw)
  }

  hash(): Uint8Array {
    return this.txHash
  }

  serialize(): Uint8Array {
    return this.bytes
  }
}

/** A transaction a TxRecord may hold. */
export type ChainTransaction = TypedTransaction | DepositTransaction

/** Whether a record (a TxRecord) holds a user transaction: a UserTxRecord. */
export function isUserTx<R extends { readonly tx: ChainTransaction }>(
  record: R,
): record is R & { readonly tx: TypedTransaction } {
  return !(record.tx instanceof DepositTransaction)
}

export function isDeposit(tx: ChainTransaction): tx is DepositTransaction {
  return tx instanceof DepositTransaction
}
