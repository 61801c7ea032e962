/**
 * The chain's state trie without the writes that change nothing. @ethereumjs's state manager writes back, at
 * every commit, each account and slot its caches took in since the last one, read or written alike: an idle
 * block's L1-info deposit wrote 15 slots of L1Block's storage of which 14 held the same value (the L1 origin
 * changes every twelve blocks), and each such put decodes its path, encodes and hashes it again and writes the
 * same nodes back. A trie holds the same root whatever order and repeats its values come in, so a put of the
 * value already there is left out; the check is a lookup (no encoding, no hash, no write), paid again by the
 * puts that do change something (one in six of an idle block's).
 */
import type { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { equalsBytes } from '@ethereumjs/util'

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
