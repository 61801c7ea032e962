/**
 * Views of the chain's state trie: the in-memory trie of a chain without --data-dir, read-only state at any
 * committed root, and a writable state whose writes stay in an overlay.
 */
import type { Common } from '@ethereumjs/common'
import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager'
import { MapDB, ValueEncoding } from '@ethereumjs/util'
import type { VM } from '@ethereumjs/vm'
import { OverlayDB } from './overlay-db.js'
import { liveTrie } from './patches/fields.js'
import type { NodeStore } from './trie-reader.js'

/**
 * The state trie of a chain without --data-dir: nodes in a Map, kept as bytes. Named explicitly because
 * @ethereumjs's default trie stores its own nodes as bytes but records the String encoding in its options,
 * which every shallow copy inherits: each contract's storage trie (a shallow copy) then wrote its nodes as
 * hex strings, and every read of a storage node converted one back (a quarter of a cold storage read's CPU).
 * `nodes`: the map the nodes are kept in (the chain's, which --history prunes; a new one by default).
 */
export function memoryTrie(common: Common, nodes = new Map<string, Uint8Array>()): MerklePatriciaTrie {
  return new MerklePatriciaTrie({
    useKeyHashing: true,
    common,
    db: new MapDB<string, Uint8Array>(nodes),
    valueEncoding: ValueEncoding.Bytes,
  })
}

/**
 * The store under the live trie, which every committed root's nodes are in; read past the trie's checkpoint
 * layer, whose open checkpoint is the sequencer's block in progress.
 */
export function nodeStore(vm: VM): NodeStore {
  return liveTrie(vm.stateManager).database().db as NodeStore
}

/**
 * A read-only state view at `root`, sharing the live trie's node store. Nodes are content-addressed and
 * only pruned (--history) once older than the kept blocks, so the view stays valid while the sequencer keeps
 * writing (~0.2 ms to create).
 * Only roots committed at journal depth 0 are readable this way.
 */
export function stateAt(vm: VM, root: Uint8Array): MerkleStateManager {
  const trie = liveTrie(vm.stateManager).shallowCopy(false)
  trie.root(root)
  return stateOver(vm, trie)
}

/**
 * A state manager of the chain's kind over `trie`: a forked chain's (src/chain/fork/) reads what its trie
 * lacks from the upstream, so every view of its roots must be one too.
 */
function stateOver(vm: VM, trie: MerklePatriciaTrie): MerkleStateManager {
  const live = vm.stateManager as { overTrie?(trie: MerklePatriciaTrie): MerkleStateManager }
  return live.overTrie?.(trie) ?? new MerkleStateManager({ common: vm.common, trie, caches: new Caches() })
}

/**
 * A writable state at `root` whose writes (trie nodes, code) stay in an overlay of the chain's node store,
 * for execution that must compute state roots without keeping anything (eth_simulateV1).
 */
export function isolatedStateAt(vm: VM, root: Uint8Array): MerkleStateManager {
  const live = liveTrie(vm.stateManager)
  const trie = live.shallowCopy(false, { db: new OverlayDB(live.database().db) } as never)
  trie.root(root)
  return stateOver(vm, trie)
}
