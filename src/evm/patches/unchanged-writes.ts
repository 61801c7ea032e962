/**
 * The chain's state without the writes that change nothing. @ethereumjs's state manager writes back, at every
 * commit, each account and slot its caches took in since the last one: an idle block's L1-info deposit stores
 * every L1Block field again (the L1 origin changes every twelve blocks), and 14 of the 15 slot puts a block
 * made held the value already, each decoding its path, encoding and hashing it again, storing the same nodes
 * and re-serializing the account. (putStorage also wrote the slot through to its trie at once, which
 * storage-at-flush.ts now leaves out.) A state holds the same root whatever repeats its writes
 * had, so both layers leave them out: the state manager's same-value putStorage (an idle instance: 8 a block
 * reached it, now 1.2; trie puts 17 a block, now 3), and the trie's same-value put (the write-back of a slot
 * already written through, or one the caches only read).
 */
import type { MerklePatriciaTrie } from '@ethereumjs/mpt'
import type { MerkleStateManager } from '@ethereumjs/statemanager'
import { equalsBytes, unpadBytes } from '@ethereumjs/util'

/**
 * Makes `trie`, and every trie copied from it from now on (the storage tries a state manager opens, the read
 * views), skip a put of the value the key already holds. The check reads before the put's own lock: the state
 * manager awaits each write, so no other write to the same trie runs in between.
 */
export function skipUnchangedWrites(trie: MerklePatriciaTrie): MerklePatriciaTrie {
  const { put, shallowCopy } = trie
  trie.put = async (key, value, skipKeyTransform = false) => {
    // an empty value is a delete, and a key given as stored (no hashing) is not what `get` looks up
    if (value !== null && value.length > 0 && !skipKeyTransform) {
      const held = await trie.get(key)
      if (held !== null && equalsBytes(held, value)) return
    }
    return put.call(trie, key, value, skipKeyTransform)
  }
  trie.shallowCopy = (includeCheckpoints, opts) => skipUnchangedWrites(shallowCopy.call(trie, includeCheckpoints, opts))
  return trie
}

/**
 * Makes `state` leave out a putStorage of the value the slot holds (an SSTORE of the same value: L1Block's
 * fields within one L1 origin), which its storage cache would otherwise hand to every commit's write-back.
 * Not for a forked chain's state: a slot it reads from the upstream is written to its own trie only when set.
 */
export function skipUnchangedStorage(state: MerkleStateManager): void {
  const { putStorage } = state
  state.putStorage = async (address, key, value) => {
    // the checks putStorage makes come first: a write it refuses is still refused
    if (key.length === 32 && value.length <= 32 && (await state.getAccount(address)) !== undefined) {
      if (equalsBytes(unpadBytes(value), await state.getStorage(address, key))) return
    }
    return putStorage.call(state, address, key, value)
  }
}
