/**
 * A follower endpoint's BlockReader: the BlockResolver over the block cache, the pending store fed by
 * re-execution and the forwarded transactions (so `pending` and hash lookups behave exactly as on the
 * embedded chain), with what the cache cannot answer read from the upstream: blocks older than the
 * cache, transactions in them, and state (canonical state at the block's number on the upstream, pending
 * state from re-execution).
 */
import type { Endpoint } from '../../generated/methods.js'
import type { BlockReader, BlockSelector, StateView } from '../capabilities/read.js'
import { keyOf } from '../domain/block-record.js'
import { quantity } from '../format/hex.js'
import type { BlockRecord, TxLocation, TxRecord } from '../domain/types.js'
import { BlockResolver, type ResolverSources } from '../pending/resolver.js'
import type { BlockCache } from './block-cache.js'
import { type FollowerState, stateView } from './follower-state.js'
import type { UpstreamHistory } from './history.js'

export interface FollowerReaderParts {
  sources: ResolverSources
  cache: BlockCache
  history: UpstreamHistory
  state: FollowerState
}

export class FollowerReader implements BlockReader {
  private readonly resolver: BlockResolver

  constructor(
    readonly endpoint: Endpoint,
    private readonly parts: FollowerReaderParts,
  ) {
    this.resolver = new BlockResolver(endpoint, parts.sources)
  }

  latest(): Promise<BlockRecord> {
    return this.resolver.latest()
  }

  pendingBlock(): Promise<BlockRecord> {
    return this.resolver.pendingBlock()
  }

  blockNumber(tag?: 'latest' | 'pending'): Promise<bigint> {
    return this.resolver.blockNumber(tag)
  }

  async block(selector: BlockSelector): Promise<BlockRecord | undefined> {
    const local = await this.resolver.block(selector)
    if (local) return local
    if (typeof selector === 'bigint') return this.older(selector)
    if (typeof selector === 'object' && 'blockHash' in selector) return this.blockByHash(selector.blockHash)
    if (typeof selector === 'object' && typeof selector.blockNumber === 'bigint')
      return this.older(selector.blockNumber)
    return undefined
  }

  async blockByHash(hash: Uint8Array): Promise<BlockRecord | undefined> {
    const local = await this.resolver.blockByHash(hash)
    if (local) return local
    const block = await this.parts.history.block(hash)
    // a block the cache covers by number but not by hash is not canonical any more
    return block && !this.parts.cache.covers(block.number) ? block : undefined
  }

  async tx(hash: Uint8Array): Promise<TxLocation | undefined> {
    const local = await this.resolver.tx(hash)
    if (local) return local
    const oldest = this.parts.cache.oldest()
    if (!oldest || oldest.number === 0n) return undefined
    return this.parts.history.tx(hash, (number) => number < oldest.number)
  }

  unsealedTx(hash: Uint8Array): Promise<TxRecord | undefined> {
    return this.resolver.unsealedTx(hash)
  }

  async state(selector: BlockSelector): Promise<StateView | undefined> {
    const block = await this.block(selector)
    if (!block) return undefined
    const pending = this.parts.sources.pending.current()?.block
    if (pending && keyOf(pending.hash) === keyOf(block.hash)) return this.parts.state.viewOfRoot(block.header.stateRoot)
    const { state } = this.parts
    return stateView(state.canonicalState(block.number, block.header.stateRoot), state.prover(quantity(block.number)))
  }

  pendingNonce(address: Uint8Array): Promise<bigint> {
    return this.resolver.pendingNonce(address)
  }

  /** A canonical block below the cache, from the upstream; nothing above the head. */
  private async older(number: bigint): Promise<BlockRecord | undefined> {
    const oldest = this.parts.cache.oldest()
    if (!oldest || number >= oldest.number) return undefined
    return this.parts.history.block(number)
  }
}
