/**
 * One key of a committed trie, read the way a read view needs it. `trie.get` serves writers too: its walk
 * runs through a task queue and keeps the path for an update, and every node it passes is fetched and
 * RLP-decoded again. For a slot nobody read at that root before, that walk was most of an eth_call's CPU.
 * Here a read goes straight down the key's path, and decoded branch and extension nodes are shared by every
 * root: a node is named by its hash, so once decoded it is right for good, and the nodes every read passes
 * (the top of the account trie, a popular contract's storage trie) stay decoded. Never hand these nodes to a
 * writer: they are shared.
 */
import {
  BranchMPTNode,
  decodeMPTNode,
  decodeRawMPTNode,
  ExtensionMPTNode,
  isRawMPTNode,
  LeafMPTNode,
  type MPTNode,
} from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'
import { type DB, equalsBytes, KECCAK256_RLP, unprefixedHexToBytes } from '@ethereumjs/util'
import { byteKey, hexKey } from '../domain/map-keys.js'
import { TRIE_DECODED_NODES } from '../limits.js'
import { keccak256 } from './crypto.js'
import { BoundedMap } from './bounded-map.js'

/** A child reference inside a node: a node's hash, or a node under 32 bytes inlined as its RLP list. */
type NodeRef = Uint8Array | Uint8Array[]

/** The node store a trie is kept in: values as bytes (memoryTrie, a data directory), or as hex from older writers. */
export type NodeStore = DB<string, Uint8Array | string>

export class TrieReader {
  private readonly decoded = new BoundedMap<MPTNode>(TRIE_DECODED_NODES)

  constructor(
    private readonly store: NodeStore,
    /** How a key becomes its path: hashed, as the state tries do (a trie of raw keys in tests: the identity). */
    private readonly pathOf: (key: Uint8Array) => Uint8Array = keccak256,
  ) {}

  /** The value at `key` under `root`; null when absent. */
  async get(root: Uint8Array, key: Uint8Array): Promise<Uint8Array | null> {
    if (equalsBytes(root, KECCAK256_RLP)) return null
    const path = nibblesOf(this.pathOf(key))
    // a decoded node comes back as it is, not in a promise: an await per level was a microtask hop each
    let next = this.node(root)
    let node = next instanceof Promise ? await next : next
    let at = 0
    for (;;) {
      if (node instanceof BranchMPTNode) {
        if (at === path.length) return node.value()
        const child = node.getBranch(path[at++]!)
        if (child === null) return null
        next = this.follow(child)
        node = next instanceof Promise ? await next : next
        continue
      }
      const nibbles = node.key()
      for (const nibble of nibbles) if (nibble !== path[at++]) return null
      if (!(node instanceof ExtensionMPTNode)) return at === path.length ? node.value() : null
      next = this.follow(node.value())
      node = next instanceof Promise ? await next : next
    }
  }

  /** The RLP-decoded value of a storage slot under a storage root (empty when unset), as a state manager gives it. */
  async storage(storageRoot: Uint8Array, slot: Uint8Array): Promise<Uint8Array> {
    const value = await this.get(storageRoot, slot)
    return value === null ? new Uint8Array(0) : (RLP.decode(value) as Uint8Array)
  }

  private follow(ref: NodeRef): MPTNode | Promise<MPTNode> {
    return isRawMPTNode(ref) ? decodeRawMPTNode(ref as Uint8Array[]) : this.node(ref as Uint8Array)
  }

  /** The node named `hash`: decoded already (no promise), or read from the store. */
  private node(hash: Uint8Array): MPTNode | Promise<MPTNode> {
    const key = byteKey(hash)
    return this.decoded.get(key) ?? this.load(hash, key)
  }

  private async load(hash: Uint8Array, key: string): Promise<MPTNode> {
    const name = hexKey(hash)
    const stored = await this.store.get(name)
    // a node a read view cannot find is not an absent key: a pruned root, or a store that lost data
    if (stored === undefined) throw new Error(`state trie node ${name} is missing from the node store`)
    const node = decodeMPTNode(typeof stored === 'string' ? unprefixedHexToBytes(stored) : stored)
    // a leaf serves one key, which the value caches above keep: keeping it here too only churns the heap
    if (!(node instanceof LeafMPTNode)) this.decoded.set(key, node)
    return node
  }
}

/** A key's path: its bytes as nibbles, high first (@ethereumjs's exported bytesToNibbles adds a terminator). */
function nibblesOf(bytes: Uint8Array): Uint8Array {
  const nibbles = new Uint8Array(bytes.length * 2)
  for (let i = 0; i < bytes.length; i++) {
    nibbles[2 * i] = bytes[i]! >> 4
    nibbles[2 * i + 1] = bytes[i]! & 15
  }
  return nibbles
}
