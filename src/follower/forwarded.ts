/**
 * The transactions this follower forwarded to the sequencer and that it accepted: the follower's stand-in
 * for a pool. They answer eth_getTransactionByHash before the feed shows them, and count towards the
 * pending nonce (max(state nonce, highest forwarded nonce + 1)) so a wallet sending back to back through
 * this node gets consecutive nonces. An entry lives until the canonical chain includes it or it expires.
 */
import { keyOf } from '../domain/block-record.js'
import type { TxRecord } from '../domain/types.js'
import { FOLLOWER_FORWARDED_TTL_MS } from '../limits.js'
import type { PoolSource } from '../pending/resolver.js'
import { isDeposit } from '../domain/deposit-transaction.js'

interface Entry {
  readonly record: TxRecord
  readonly at: number
}

export class ForwardedTxs implements PoolSource {
  private readonly byHash = new Map<string, Entry>()

  constructor(private readonly ttlMs: number = FOLLOWER_FORWARDED_TTL_MS) {}

  add(record: TxRecord): void {
    this.prune()
    this.byHash.set(keyOf(record.hash), { record, at: Date.now() })
  }

  /** A canonical block took these transactions: they are the chain's to answer now. */
  settle(hashes: Iterable<Uint8Array>): void {
    for (const hash of hashes) this.byHash.delete(keyOf(hash))
  }

  get(hash: Uint8Array): TxRecord | undefined {
    const entry = this.byHash.get(keyOf(hash))
    return entry && Date.now() - entry.at < this.ttlMs ? entry.record : undefined
  }

  async pendingNonce(address: Uint8Array): Promise<bigint> {
    this.prune()
    const sender = keyOf(address)
    let next = 0n
    for (const { record } of this.byHash.values()) {
      // deposits carry no sender nonce of their own (the sequencer never receives one from a follower anyway)
      if (isDeposit(record.tx) || keyOf(record.sender) !== sender) continue
      if (record.tx.nonce + 1n > next) next = record.tx.nonce + 1n
    }
    return next
  }

  get size(): number {
    return this.byHash.size
  }

  private prune(): void {
    const now = Date.now()
    for (const [key, entry] of this.byHash) if (now - entry.at >= this.ttlMs) this.byHash.delete(key)
  }
}
