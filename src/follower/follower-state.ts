/**
 * Where a follower's state reads go: canonical blocks read the upstream's state at their number (batched
 * and cached per block by UpstreamSnapshot, a few blocks kept), the pending block reads the state its
 * flashblocks' re-execution left (kept per flashblock root, so a read racing the next flashblock still
 * sees a whole one). BLOCKHASH comes from the block cache, older hashes from the upstream.
 */
import type { Common } from '@ethereumjs/common'
import type { EVMMockBlockchainInterface } from '@ethereumjs/evm'
import { Address } from '@ethereumjs/util'
import type { AccountProof as WireAccountProof } from '../../generated/types.js'
import type { StateView } from '../capabilities/read.js'
import { keyOf } from '../domain/block-record.js'
import { data, quantity, parseData } from '../format/hex.js'
import { parseAccountProof } from '../format/proof.js'
import { FOLLOWER_PENDING_VIEWS_KEPT, FOLLOWER_SNAPSHOTS_KEPT } from '../limits.js'
import type { BlockCache } from './block-cache.js'
import type { UpstreamRpc } from './upstream-rpc.js'
import { UpstreamSnapshot } from './upstream-snapshot.js'
import { UpstreamStateManager } from './upstream-state.js'

/** A Map used as a small LRU: insertion order is recency. */
function remember<V>(map: Map<string, V>, key: string, value: V, kept: number): V {
  map.delete(key)
  map.set(key, value)
  while (map.size > kept) map.delete(map.keys().next().value!)
  return value
}

export class FollowerState {
  private readonly snapshots = new Map<string, UpstreamSnapshot>()
  private readonly pendingStates = new Map<string, UpstreamStateManager>()
  readonly blockHashes: EVMMockBlockchainInterface

  constructor(
    private readonly upstream: UpstreamRpc,
    readonly common: Common,
    private readonly cache: BlockCache,
  ) {
    this.blockHashes = cacheBlockHashes(cache, upstream)
  }

  /** The upstream's reads at block `number`, shared by re-execution, calls and state reads of that block. */
  snapshotFor(number: bigint): UpstreamSnapshot {
    const key = String(number)
    return (
      this.snapshots.get(key) ??
      remember(this.snapshots, key, new UpstreamSnapshot(this.upstream, number), FOLLOWER_SNAPSHOTS_KEPT)
    )
  }

  /** A flashblock's re-executed state, under the flashblock's state root. */
  addPending(root: Uint8Array, state: UpstreamStateManager): void {
    remember(this.pendingStates, keyOf(root), state, FOLLOWER_PENDING_VIEWS_KEPT)
  }

  /** The re-executed state of a flashblock root still kept, as an independent copy callers may write to. */
  pendingState(root: Uint8Array): UpstreamStateManager | undefined {
    return this.pendingView(root)?.shallowCopy()
  }

  /**
   * The re-executed state of a flashblock root still kept, itself: for readers that never write to it (a
   * plain call's CallState keeps its writes apart). Re-execution goes on from a copy, so it never changes.
   */
  pendingView(root: Uint8Array): UpstreamStateManager | undefined {
    return this.pendingStates.get(keyOf(root))
  }

  clearPending(): void {
    this.pendingStates.clear()
  }

  /** A writable state of a canonical block: the upstream's, with local writes kept apart. */
  canonicalState(number: bigint, root?: Uint8Array): UpstreamStateManager {
    return new UpstreamStateManager(this.snapshotFor(number), this.common, { root })
  }

  /** The state view of a root: a kept flashblock's, else the cached canonical block's, else the head's. */
  viewOfRoot(root: Uint8Array): StateView {
    const pending = this.pendingStates.get(keyOf(root))
    if (pending) return stateView(pending, this.prover('pending'))
    const head = this.cache.latest()
    let number = head?.number ?? 0n
    const oldest = this.cache.oldest()
    if (oldest && head) {
      for (const block of this.cache.range(oldest.number, head.number))
        if (keyOf(block.header.stateRoot) === keyOf(root)) number = block.number
    }
    return stateView(this.canonicalState(number, root), this.prover(quantity(number)))
  }

  /** Proofs need the upstream's trie: eth_getProof there, at a canonical number or (for pending) its `pending`. */
  prover(block: string): Prover {
    return async (address, slots) =>
      parseAccountProof(
        await this.upstream.call<WireAccountProof>('eth_getProof', [data(address), slots.map(data), block]),
      )
  }
}

type Prover = StateView['proof']

/** StateView over upstream-backed state (reads only). */
export function stateView(state: UpstreamStateManager, prove: Prover): StateView {
  return {
    balance: async (address) => (await state.getAccount(new Address(address)))?.balance ?? 0n,
    nonce: async (address) => (await state.getAccount(new Address(address)))?.nonce ?? 0n,
    code: (address) => state.getCode(new Address(address)),
    storage: (address, slot) => state.getStorage(new Address(address), slot),
    proof: prove,
  }
}

function cacheBlockHashes(cache: BlockCache, upstream: UpstreamRpc): EVMMockBlockchainInterface {
  const hashes: EVMMockBlockchainInterface = {
    async getBlock(n: number) {
      let hash = cache.byNumber(BigInt(n))?.hash
      if (!hash) {
        const block = await upstream.call<{ hash: string } | null>('eth_getBlockByNumber', [quantity(BigInt(n)), false])
        hash = block ? parseData(block.hash) : new Uint8Array(32)
      }
      const found = hash
      return { hash: () => found }
    },
    async putBlock() {},
    shallowCopy: () => hashes,
  }
  return hashes
}
