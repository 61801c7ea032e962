/**
 * Fork mode's state: the chain's own Merkle trie holds only what was written locally (the dev accounts'
 * funding, then every block's writes); whatever it lacks reads through to the upstream's state at the fork
 * block (an UpstreamSnapshot: batched, cached for the run, the follower's). So every local root stays a real
 * trie root the sequencer, the read views and the pool use unchanged, and nothing the chain does needs the
 * upstream's whole trie (eth_getProof is not required of the upstream, as anvil does not require it).
 *
 * An account absent from the local trie is the upstream's (storage root reported empty: its slots are not
 * local). A slot absent from the account's local storage trie is the upstream's, unless it was written to
 * zero here (a zero is a deletion in the trie, so a tombstone slot records it) or the account's storage was
 * cleared here (contract creation: a marker slot). Both markers sit at keccak-derived slots no contract
 * reaches. A deleted account reads through again: after Cancun only an account created in the same
 * transaction can go, and that one was empty upstream.
 */
import type { Common } from '@ethereumjs/common'
import type { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager'
import { type Account, type Address, concatBytes, KECCAK256_RLP, utf8ToBytes } from '@ethereumjs/util'
import { keccak256 } from '../../evm/crypto.js'
import { codeCache, liveTrie } from '../../evm/patches/fields.js'
import { RootReader } from '../../evm/state-cache.js'
import { type UpstreamSnapshot, accountOf } from '../../follower/upstream-snapshot.js'

const ONE = Uint8Array.of(1)
/** Set in an account's local storage when its storage was cleared here: no slot reads through any more. */
const CLEARED_SLOT = keccak256(utf8ToBytes('preconf-rpc fork: storage cleared locally'))
const TOMBSTONE = utf8ToBytes('preconf-rpc fork: slot zeroed locally')
/** The slot recording that `slot` was written to zero here (so the upstream's value no longer shows). */
const tombstoneOf = (slot: Uint8Array) => keccak256(concatBytes(TOMBSTONE, slot))

export class ForkStateManager extends MerkleStateManager {
  constructor(
    /** The upstream's state at the fork block (replaced by a re-fork, with the local trie emptied). */
    public upstream: UpstreamSnapshot,
    common: Common,
    trie: MerklePatriciaTrie,
  ) {
    super({ common, trie, caches: new Caches() })
  }

  /** anvil_reset's re-fork: nothing local any more, everything reads through to `upstream`. */
  async restartOn(upstream: UpstreamSnapshot): Promise<void> {
    await this.setStateRoot(KECCAK256_RLP)
    this.upstream = upstream
  }

  /** The same fork over another trie (a read view at a root, an isolated simulation): see stateOver in evm/state-views.ts. */
  overTrie(trie: MerklePatriciaTrie): ForkStateManager {
    return new ForkStateManager(this.upstream, this.common, trie)
  }

  override shallowCopy(downlevelCaches = true): ForkStateManager {
    const copy = super.shallowCopy(downlevelCaches)
    return new ForkStateManager(this.upstream, copy.common, liveTrie(copy))
  }

  override async getAccount(address: Address): Promise<Account | undefined> {
    const local = await super.getAccount(address)
    if (local) return local
    const upstream = await this.upstream.account(address.bytes)
    return upstream && accountOf(upstream)
  }

  override async getCode(address: Address): Promise<Uint8Array> {
    const code = await super.getCode(address)
    if (code.length > 0) return code
    const account = await this.getAccount(address)
    if (!account?.isContract()) return code
    // an upstream contract written here (its balance, a slot) keeps the upstream's code hash, not its code
    const upstream = (await this.upstream.account(address.bytes))?.code
    if (!upstream?.length) return code
    // super cached the empty code it found, which a flush would write as the account's code: replace it
    codeCache(this)?.put(address, upstream)
    return upstream
  }

  override async getStorage(address: Address, slot: Uint8Array): Promise<Uint8Array> {
    const local = await super.getStorage(address, slot)
    if (local.length > 0) return local
    if ((await super.getStorage(address, tombstoneOf(slot))).length > 0) return local
    if ((await super.getStorage(address, CLEARED_SLOT)).length > 0) return local
    return this.upstream.storage(address.bytes, slot)
  }

  override async putStorage(address: Address, slot: Uint8Array, value: Uint8Array): Promise<void> {
    await super.putStorage(address, slot, value)
    if (value.every((byte) => byte === 0)) await super.putStorage(address, tombstoneOf(slot), ONE)
  }

  override async clearStorage(address: Address): Promise<void> {
    await super.clearStorage(address)
    await super.putStorage(address, CLEARED_SLOT, ONE)
  }
}

/**
 * A committed root's reads on a forked chain: through the fork's state manager at that root (its caches
 * serve the root's next reads), since the chain's trie-walking RootReader cannot see the upstream.
 */
export class ForkRootReader extends RootReader {
  override get state(): ForkStateManager {
    return super.state as ForkStateManager
  }

  // every read goes to the fork's state manager (the local trie holds only what the fork wrote): the
  // get* reads of RootReader go through these
  override readAccount(address: Address): Promise<Account | null> {
    return this.state.getAccount(address).then((account) => account ?? null)
  }

  override readCode(address: Address): Promise<Uint8Array> {
    return this.state.getCode(address)
  }

  override readStorage(address: Address, slot: Uint8Array): Promise<Uint8Array> {
    return this.state.getStorage(address, slot)
  }
}
