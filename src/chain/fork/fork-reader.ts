/**
 * A forked chain endpoint's BlockReader: the local BlockResolver for the blocks the local sequencer made
 * (above the fork block) and for `pending`; the upstream for the fork block and everything before it
 * (blocks, transactions, receipts, state at their number), as a follower reads what its cache lacks.
 * The store's first block is the fork block with the local state root: readers get the upstream's instead.
 */
import type { Endpoint } from '../../../generated/methods.js'
import type { BlockReader, BlockSelector, StateView } from '../../capabilities/read.js'
import type { BlockRecord, TxLocation, TxRecord } from '../../domain/types.js'
import { stateView } from '../../follower/follower-state.js'
import { quantity } from '../../format/hex.js'
import type { BlockResolver } from '../../pending/resolver.js'
import type { UpstreamFork } from './upstream-fork.js'

export class ForkReader implements BlockReader {
  constructor(
    private readonly local: BlockResolver,
    private readonly fork: UpstreamFork,
  ) {}

  get endpoint(): Endpoint {
    return this.local.endpoint
  }

  latest(): Promise<BlockRecord> {
    return this.upstreamIfForked(this.local.latest())
  }

  pendingBlock(): Promise<BlockRecord> {
    return this.upstreamIfForked(this.local.pendingBlock())
  }

  blockNumber(tag?: 'latest' | 'pending'): Promise<bigint> {
    return this.local.blockNumber(tag)
  }

  async block(selector: BlockSelector): Promise<BlockRecord | undefined> {
    if (selector === 'earliest') return this.fork.history.block(0n)
    const number = typeof selector === 'object' && 'blockNumber' in selector ? selector.blockNumber : selector
    if (typeof number === 'bigint' && number <= this.fork.number) return this.fork.history.block(number)
    if (typeof selector === 'object' && 'blockHash' in selector) return this.blockByHash(selector.blockHash)
    return this.upstreamIfForked(Promise.resolve(this.local.block(selector)))
  }

  async blockByHash(hash: Uint8Array): Promise<BlockRecord | undefined> {
    const local = await this.local.blockByHash(hash)
    if (local && local.number > this.fork.number) return local
    const block = await this.fork.history.block(hash)
    return block && block.number <= this.fork.number ? block : undefined
  }

  async tx(hash: Uint8Array): Promise<TxLocation | undefined> {
    const local = await this.local.tx(hash)
    if (local && local.block.number > this.fork.number) return local
    return this.fork.history.tx(hash, (number) => number <= this.fork.number)
  }

  unsealedTx(hash: Uint8Array): Promise<TxRecord | undefined> {
    return this.local.unsealedTx(hash)
  }

  async state(selector: BlockSelector): Promise<StateView | undefined> {
    const block = await this.block(selector)
    if (!block) return undefined
    if (block.number > this.fork.number) return this.local.state(selector)
    const { state } = this.fork
    return stateView(state.canonicalState(block.number, block.header.stateRoot), state.prover(quantity(block.number)))
  }

  pendingNonce(address: Uint8Array): Promise<bigint> {
    return this.local.pendingNonce(address)
  }

  /** Before the first local block is sealed, `latest` is the fork block: the upstream's record of it. */
  private async upstreamIfForked(reading: Promise<BlockRecord | undefined>): Promise<BlockRecord> {
    const block = await reading
    if (block && block.number <= this.fork.number) return this.fork.block
    return block as BlockRecord
  }
}
