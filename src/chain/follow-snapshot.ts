/**
 * The embedded chain's state snapshot (src/evm/state-snapshot.ts): made from the head's state, then moved by
 * the chain's own events, each sealed block's root and each flashblock's. None over a node store read only
 * by promise: the snapshot's diffs run at once, between two requests.
 */
import type { ChainEvents, TypedEmitter } from '../evm/events.js'
import { StateSnapshot } from '../evm/state-snapshot.js'
import type { TrieReader } from '../evm/trie-reader.js'

export function followingSnapshot(
  trie: TrieReader,
  events: TypedEmitter<ChainEvents>,
  /** The root whose state a root stands for (the dev node's edited roots). */
  rootOf: (root: Uint8Array) => Uint8Array,
  head: Uint8Array,
): StateSnapshot | undefined {
  if (!trie.readsNow) return undefined
  const snapshot = new StateSnapshot((hash) => trie.nodeNow(hash))
  events.on('block', (block) => snapshot.sealed(rootOf(block.header.stateRoot)))
  events.on('flashblock', (fb) => snapshot.flashblock(rootOf(fb.diff.stateRoot)))
  snapshot.make(rootOf(head))
  return snapshot
}
