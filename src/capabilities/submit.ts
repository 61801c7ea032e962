/**
 * Submitting transactions and waiting for them: the embedded chain admits into its own pool; a follower
 * forwards to its upstream node and watches its feed.
 */
import type { TxLocation, UserTxRecord as TxRecord } from '../domain/types.js'

/** txpool_content: executable (`pending`) and nonce-gapped (`queued`) transactions, grouped by sender. */
export interface PoolContent {
  pending: { sender: Uint8Array; txs: TxRecord[] }[]
  queued: { sender: Uint8Array; txs: TxRecord[] }[]
}

export interface SendOptions {
  /**
   * EIP-7966 (eth_sendRawTransactionSync): a nonce above the sender's next one is refused with
   * SendSyncNonceGapError (the expected nonce) instead of waiting in the pool's queue.
   */
  rejectNonceGap?: boolean
}

export interface TxSubmitter {
  /** Admission; resolves to the hash or throws TransactionRejectedError with geth's text. */
  sendRawTransaction(raw: Uint8Array, options?: SendOptions): Promise<Uint8Array>
  /**
   * The transaction's location as soon as it is preconfirmed (or, with `preconfirmed: false`, canonical);
   * undefined on timeout or when it is dropped. Subscribes before it returns, so nothing published right
   * after the send is missed.
   */
  waitForReceipt(
    hash: Uint8Array,
    timeoutMs: number,
    options?: { preconfirmed?: boolean },
  ): Promise<TxLocation | undefined>
  poolContent(): Promise<PoolContent>
}
