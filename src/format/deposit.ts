/**
 * Deposits on the wire. op-geth's newRPCTransaction shows a deposit with `type: 0x7e`, `sourceHash`,
 * `mint`, `isSystemTx` only when true, `gasPrice` and v/r/s as 0x0, no chainId or yParity, and (once
 * executed) its `nonce` and `depositReceiptVersion` from the receipt. `mint` is always present (op-reth, which
 * X Layer nodes run, writes "0x0" for no mint; op-geth omits it then; viem reads either).
 */
import { address, data, quantity, type Hex } from './hex.js'
import type { DepositTx } from '../domain/deposit-encoding.js'
import { DEPOSIT_RECEIPT_VERSION } from '../domain/deposit-receipt.js'

export interface DepositPosition {
  blockHash: Uint8Array
  blockNumber: bigint
  index: number
}

/** The receipt-side facts of an executed deposit. */
export interface DepositOutcome {
  /** The sender's nonce before the deposit ran (what it bumped). */
  depositNonce: bigint
}

export type RpcDepositTransaction = Record<string, Hex | boolean | null>

export function formatDepositTransaction(
  tx: DepositTx,
  hash: Uint8Array,
  position?: DepositPosition,
  outcome?: DepositOutcome,
): RpcDepositTransaction {
  const out: RpcDepositTransaction = {
    blockHash: position ? data(position.blockHash) : null,
    blockNumber: position ? quantity(position.blockNumber) : null,
    from: address(tx.from),
    gas: quantity(tx.gas),
    gasPrice: quantity(0n),
    hash: data(hash),
    input: data(tx.data),
    nonce: quantity(outcome?.depositNonce ?? 0n),
    to: tx.to ? address(tx.to) : null,
    transactionIndex: position ? quantity(position.index) : null,
    value: quantity(tx.value),
    type: quantity(0x7e),
    v: quantity(0n),
    r: quantity(0n),
    s: quantity(0n),
    sourceHash: data(tx.sourceHash),
    mint: quantity(tx.mint),
  }
  if (tx.isSystemTx) out.isSystemTx = true
  if (outcome) out.depositReceiptVersion = quantity(DEPOSIT_RECEIPT_VERSION)
  return out
}

/** The fields a deposit's receipt adds to the common receipt (op-geth: depositNonce, depositReceiptVersion). */
export function depositReceiptFields(outcome: DepositOutcome): { depositNonce: Hex; depositReceiptVersion: Hex } {
  return { depositNonce: quantity(outcome.depositNonce), depositReceiptVersion: quantity(DEPOSIT_RECEIPT_VERSION) }
}
