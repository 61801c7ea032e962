/**
 * A follower's writes: eth_sendRawTransaction is forwarded to the sequencer and its answer (the hash, or
 * its error with code, message and data) returned unchanged. Before forwarding, the transaction's hash is
 * watched on the follower's own flashblock and block events, so eth_sendRawTransactionSync cannot miss a
 * preconfirmation that arrives while the sequencer's HTTP answer is still on its way (base/base#3826).
 */
import type { Common } from '@ethereumjs/common'
import type { PoolContent, SendOptions, TxSubmitter } from '../capabilities/submit.js'
import { keccak256 } from '../evm/crypto.js'
import type { ChainEvents, TypedEmitter } from '../evm/events.js'
import { waitForLocation } from '../chain/wait-for-location.js'
import { decodeTransaction } from '../chain/pool/admission.js'
import { keyOf } from '../domain/block-record.js'
import { SendSyncNonceGapError, TxTypeNotSupportedError } from '../errors.js'
import type { TxLocation, TxRecord } from '../domain/types.js'
import { data, parseData, parseQuantity } from '../format/hex.js'
import { DEPOSIT_TX_TYPE } from '../domain/deposit-encoding.js'
import { isUserTx } from '../domain/deposit-transaction.js'
import type { BlockCache } from './block-cache.js'
import type { ForwardedTxs } from './forwarded.js'
import type { UpstreamRpc } from './upstream-rpc.js'

interface Pending {
  tx(hash: Uint8Array): TxLocation | undefined
}

export interface FollowerSubmitterParts {
  sequencer: UpstreamRpc
  common: Common
  cache: BlockCache
  pending: Pending
  events: TypedEmitter<ChainEvents>
  forwarded: ForwardedTxs
  /** How long a forwarded hash is watched (longer than the longest eth_sendRawTransactionSync wait). */
  watchMs: number
}

export class FollowerSubmitter implements TxSubmitter {
  /** Hashes forwarded recently, with where the follower first saw them preconfirmed. */
  private readonly watched = new Map<string, { preconfirmed?: TxLocation; timer: NodeJS.Timeout }>()

  constructor(private readonly parts: FollowerSubmitterParts) {
    parts.events.on('flashblock', (fb) => {
      if (this.watched.size === 0) return
      for (const { hash } of fb.executed.txs) {
        const watch = this.watched.get(keyOf(hash))
        if (watch && !watch.preconfirmed) watch.preconfirmed = parts.pending.tx(hash)
      }
    })
  }

  async sendRawTransaction(raw: Uint8Array, options: SendOptions = {}): Promise<Uint8Array> {
    // op-geth's pool refuses deposits (only the engine API, authenticated, brings them in): a follower says
    // so itself rather than forwarding what no sequencer would take from a user
    if (raw[0] === DEPOSIT_TX_TYPE) throw new TxTypeNotSupportedError()
    if (options.rejectNonceGap) await this.refuseNonceGap(raw)
    const key = keyOf(keccak256(raw))
    this.watch(key)
    let hash: Uint8Array
    try {
      hash = parseData(await this.parts.sequencer.call<string>('eth_sendRawTransaction', [data(raw)]))
    } catch (err) {
      this.unwatch(key)
      throw err
    }
    const record = decodeOrUndefined(raw, this.parts.common)
    if (record && keyOf(record.hash) === keyOf(hash)) this.parts.forwarded.add(record)
    return hash
  }

  waitForReceipt(
    hash: Uint8Array,
    timeoutMs: number,
    options: { preconfirmed?: boolean } = {},
  ): Promise<TxLocation | undefined> {
    const preconfirmed = options.preconfirmed ?? true
    const key = keyOf(hash)
    const find = () =>
      this.parts.cache.tx(hash) ??
      (preconfirmed ? (this.parts.pending.tx(hash) ?? this.watched.get(key)?.preconfirmed) : undefined)
    return waitForLocation(this.parts.events, hash, find, timeoutMs)
  }

  /** EIP-7966: the sequencer's pending nonce (its pool counted) is the one the sender's next transaction needs. */
  private async refuseNonceGap(raw: Uint8Array): Promise<void> {
    const record = decodeOrUndefined(raw, this.parts.common)
    if (!record || !isUserTx(record)) return // the sequencer answers what this node cannot read
    const pending = await this.parts.sequencer.call<string>('eth_getTransactionCount', [data(record.sender), 'pending'])
    const expected = parseQuantity(pending)
    if (record.tx.nonce > expected) throw new SendSyncNonceGapError(expected)
  }

  /** A follower holds no pool: what it forwards is the sequencer's. */
  async poolContent(): Promise<PoolContent> {
    return { pending: [], queued: [] }
  }

  close(): void {
    for (const { timer } of this.watched.values()) clearTimeout(timer)
    this.watched.clear()
  }

  private unwatch(key: string): void {
    clearTimeout(this.watched.get(key)?.timer)
    this.watched.delete(key)
  }

  private watch(key: string): void {
    if (this.watched.has(key)) return
    const timer = setTimeout(() => this.watched.delete(key), this.parts.watchMs)
    this.watched.set(key, { timer })
  }
}

function decodeOrUndefined(raw: Uint8Array, common: Common): TxRecord | undefined {
  try {
    return decodeTransaction(raw, common)
  } catch {
    return undefined // the sequencer accepted what this node cannot decode (a type it does not know)
  }
}
