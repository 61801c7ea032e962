/**
 * The block resolver of one endpoint: turns a block selector into a block, a state root or a state view.
 * The only difference between the endpoints lives here: `pending` is the latest canonical block on
 * `general` and the pending store's newest flashblock view on `flashblocks` (falling back to latest, never
 * null); lookups by hash try canonical first, then (on `flashblocks` only) the pending block.
 */
import type { MerkleStateManager } from '@ethereumjs/statemanager'
import { Address } from '@ethereumjs/util'
import type { VM } from '@ethereumjs/vm'
import { keyOf } from '../chain/block-record.js'
import { stateAt } from '../chain/engine.js'
import type { TxPool } from '../chain/pool/pool.js'
import type { CanonicalStore } from '../chain/store.js'
import type { BlockRecord, TxLocation } from '../chain/types.js'
import type { PendingStore } from './store.js'

export type Endpoint = 'general' | 'flashblocks'
export type BlockTag = 'latest' | 'earliest' | 'pending' | 'safe' | 'finalized'
/** A block parameter: a tag, a number, or an EIP-1898 object. */
export type BlockSelector =
  | BlockTag
  | bigint
  | { readonly blockHash: Uint8Array; readonly requireCanonical?: boolean }
  | { readonly blockNumber: bigint | BlockTag }

export interface ResolverSources {
  readonly vm: VM
  readonly store: CanonicalStore
  readonly pending: PendingStore
  readonly pool: TxPool
}

export class BlockResolver {
  constructor(readonly endpoint: Endpoint, private readonly sources: ResolverSources) {}

  latest(): BlockRecord {
    return this.sources.store.latest()
  }

  /** What `pending` means here; never undefined. */
  pendingBlock(): BlockRecord {
    return this.preconfirmed() ?? this.sources.store.latest()
  }

  /** Height for eth_blockNumber: `pending` gives the pending height on flashblocks, anything else latest. */
  blockNumber(tag: 'latest' | 'pending' = 'latest'): bigint {
    return tag === 'pending' ? this.pendingBlock().number : this.sources.store.height
  }

  /** The block a selector names, or undefined for an unknown number or hash. */
  block(selector: BlockSelector): BlockRecord | undefined {
    const { store } = this.sources
    if (typeof selector === 'bigint') return this.byNumber(selector)
    if (typeof selector === 'string') {
      switch (selector) {
        case 'earliest': return store.genesis()
        case 'pending': return this.pendingBlock()
        // a single sequencer: what is sealed is final
        case 'latest': case 'safe': case 'finalized': return store.latest()
      }
    }
    if ('blockHash' in selector) {
      const canonical = store.blockByHash(selector.blockHash)
      if (canonical || selector.requireCanonical) return canonical
      return this.pendingByHash(selector.blockHash)
    }
    return this.block(selector.blockNumber)
  }

  /** Canonical first, then the current pending block (flashblocks only). */
  blockByHash(hash: Uint8Array): BlockRecord | undefined {
    return this.sources.store.blockByHash(hash) ?? this.pendingByHash(hash)
  }

  /** Canonical first (avoids a race at sealing), then the preconfirmed transactions (flashblocks only). */
  tx(hash: Uint8Array): TxLocation | undefined {
    const canonical = this.sources.store.tx(hash)
    if (canonical || this.endpoint !== 'flashblocks') return canonical
    return this.sources.pending.tx(hash)
  }

  /** Whether a block from this resolver is the preconfirmed (not yet canonical) one. */
  isPending(block: BlockRecord): boolean {
    return this.sources.store.blockByHash(block.hash) === undefined
  }

  stateRoot(selector: BlockSelector): Uint8Array | undefined {
    return this.block(selector)?.header.stateRoot
  }

  /** A read-only state view at the selected block (its own caches; safe while the sequencer writes). */
  state(selector: BlockSelector): MerkleStateManager | undefined {
    const root = this.stateRoot(selector)
    return root ? stateAt(this.sources.vm, root) : undefined
  }

  /**
   * eth_getTransactionCount at `pending`: max(nonce after the preconfirmed transactions, highest consecutive
   * pool nonce + 1), so a wallet can send its next transaction at once. The pool counts on `general` too,
   * as geth's pending nonce does (the pool's nonces start from the newest flashblock's state).
   */
  async pendingNonce(address: Uint8Array): Promise<bigint> {
    const view = stateAt(this.sources.vm, this.pendingBlock().header.stateRoot)
    const [stateNonce, poolNonce] = await Promise.all([
      view.getAccount(new Address(address)).then((a) => a?.nonce ?? 0n),
      this.sources.pool.pendingNonce(address),
    ])
    return stateNonce > poolNonce ? stateNonce : poolNonce
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
