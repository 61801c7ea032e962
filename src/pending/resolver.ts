/**
 * The block resolver of one endpoint: the BlockReader over a canonical store, a pending store and a pool.
 * The only difference between the endpoints lives here: `pending` is the latest canonical block on
 * `general` and the pending store's newest flashblock view on `flashblocks` (falling back to latest, never
 * null); lookups by hash try canonical first, then (on `flashblocks` only) the pending block. It depends on
 * the shapes of its sources, not on who fills them (the embedded chain now, a follower's stores next).
 */
import type { Endpoint } from '../../generated/methods.js'
import type { BlockReader, BlockSelector, StateView } from '../capabilities/read.js'
import { keyOf } from '../domain/block-record.js'
import type { BlockRecord, TxLocation, TxRecord } from '../domain/types.js'

interface CanonicalSource {
  readonly height: bigint
  latest(): BlockRecord
  genesis(): BlockRecord
  byNumber(number: bigint): BlockRecord | undefined
  blockByHash(hash: Uint8Array): BlockRecord | undefined
  tx(hash: Uint8Array): TxLocation | undefined
}

interface PendingSource {
  current(): { readonly block: BlockRecord } | undefined
  tx(hash: Uint8Array): TxLocation | undefined
}

export interface PoolSource {
  get(hash: Uint8Array): TxRecord | undefined
  /** Highest consecutive pooled nonce + 1 (0 when the sender has nothing pooled). */
  pendingNonce(address: Uint8Array): Promise<bigint>
}

export interface ResolverSources {
  readonly store: CanonicalSource
  readonly pending: PendingSource
  readonly pool: PoolSource
  /** A read-only view of a committed state root. */
  stateAt(root: Uint8Array): StateView
  /** The oldest block whose state is served (--history); absent: genesis. */
  oldestState?(): bigint
}

export class BlockResolver implements BlockReader {
  constructor(
    readonly endpoint: Endpoint,
    private readonly sources: ResolverSources,
  ) {}

  oldestState(): bigint {
    return this.sources.oldestState?.() ?? 0n
  }

  async latest(): Promise<BlockRecord> {
    return this.sources.store.latest()
  }

  async pendingBlock(): Promise<BlockRecord> {
    return this.pendingNow()
  }

  async blockNumber(tag: 'latest' | 'pending' = 'latest'): Promise<bigint> {
    return tag === 'pending' ? this.pendingNow().number : this.sources.store.height
  }

  block(selector: BlockSelector): BlockRecord | undefined {
    return this.blockNow(selector)
  }

  async blockByHash(hash: Uint8Array): Promise<BlockRecord | undefined> {
    return this.sources.store.blockByHash(hash) ?? this.pendingByHash(hash)
  }

  /** Canonical first (avoids a race at sealing), then the preconfirmed transactions (flashblocks only). */
  async tx(hash: Uint8Array): Promise<TxLocation | undefined> {
    const canonical = this.sources.store.tx(hash)
    if (canonical || this.endpoint !== 'flashblocks') return canonical
    return this.sources.pending.tx(hash)
  }

  async unsealedTx(hash: Uint8Array): Promise<TxRecord | undefined> {
    return this.sources.pool.get(hash) ?? this.sources.pending.tx(hash)?.tx
  }

  state(selector: BlockSelector): StateView | undefined {
    const root = this.blockNow(selector)?.header.stateRoot
    return root ? this.sources.stateAt(root) : undefined
  }

  /**
   * max(nonce after the preconfirmed transactions, highest consecutive pool nonce + 1), so a wallet can
   * send its next transaction at once. The pool counts on `general` too, as geth's pending nonce does (the
   * pool's nonces start from the newest flashblock's state).
   */
  async pendingNonce(address: Uint8Array): Promise<bigint> {
    const view = this.sources.stateAt(this.pendingNow().header.stateRoot)
    const [stateNonce, poolNonce] = await Promise.all([view.nonce(address), this.sources.pool.pendingNonce(address)])
    return stateNonce > poolNonce ? stateNonce : poolNonce
  }

  private pendingNow(): BlockRecord {
    return this.preconfirmed() ?? this.sources.store.latest()
  }

  private blockNow(selector: BlockSelector): BlockRecord | undefined {
    const { store } = this.sources
    if (typeof selector === 'bigint') return this.byNumber(selector)
    if (typeof selector === 'string') {
      switch (selector) {
        case 'earliest':
          return store.genesis()
        case 'pending':
          return this.pendingNow()
        // a single sequencer: what is sealed is final
        case 'latest':
        case 'safe':
        case 'finalized':
          return store.latest()
      }
    }
    if ('blockHash' in selector) {
      const canonical = store.blockByHash(selector.blockHash)
      if (canonical || selector.requireCanonical) return canonical
      return this.pendingByHash(selector.blockHash)
    }
    return this.blockNow(selector.blockNumber)
  }

  private byNumber(number: bigint): BlockRecord | undefined {
    const canonical = this.sources.store.byNumber(number)
    if (canonical) return canonical
    const pending = this.preconfirmed()
    return pending && pending.number === number ? pending : undefined
  }

  private pendingByHash(hash: Uint8Array): BlockRecord | undefined {
    const pending = this.preconfirmed()
    return pending && keyOf(pending.hash) === keyOf(hash) ? pending : undefined
  }

  private preconfirmed(): BlockRecord | undefined {
    return this.endpoint === 'flashblocks' ? this.sources.pending.current()?.block : undefined
  }
}
