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
  decodeRawMPTNode,
  ExtensionMPTNode,
  isRawMPTNode,
  LeafMPTNode,
  type MPTNode,
} from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'
import { type DB, equalsBytes, KECCAK256_RLP, MapDB, unprefixedHexToBytes } from '@ethereumjs/util'
import { hashId, hexKey } from '../domain/map-keys.js'
import { SEEN_IDS, TRIE_DECODED_NODES } from '../limits.js'
import { keccak256 } from './crypto.js'
import { BoundedMap } from './bounded-map.js'
import { Doorkeeper } from './doorkeeper.js'
import { mapUnder } from './patches/fields.js'
import { readNode } from './trie-node.js'

/** A child reference inside a node: a node's hash, or a node under 32 bytes inlined as its RLP list. */
type NodeRef = Uint8Array | Uint8Array[]

/**
 * The node store a trie is kept in: values as bytes (memoryTrie, a data directory), or as hex from older writers.
 * `getSync`: the same read without a promise, for a store that has one (LevelDB's getSync, ~6 µs).
 */
export type NodeStore = DB<string, Uint8Array | string> & { getSync?(key: string): Uint8Array | string | undefined }

/** A decoded node and the hash that names it (the cache's key is only part of it: hashId). */
type Decoded = { hash: Uint8Array; node: MPTNode }

export class TrieReader {
  private readonly decoded = new BoundedMap<Decoded, number>(TRIE_DECODED_NODES)
  /**
   * Nodes decoded before: one is kept from its second decoding on. The nodes under the top of a large trie
   * are each on the path of few keys, and a stream of distinct reads (a new address every request) would fill
   * the cache with them, ~2 KiB each, pushing out the shared ones, for the collector to copy and promote.
   */
  private readonly seen = new Doorkeeper(SEEN_IDS)
  /** A read of the store without a promise: a MapDB's map, or the store's own getSync; undefined for others. */
  private readonly readNow: ((key: string) => Uint8Array | string | undefined) | undefined

  constructor(
    private readonly store: NodeStore,
    /** How a key becomes its path: hashed, as the state tries do (a trie of raw keys in tests: the identity). */
    private readonly pathOf: (key: Uint8Array) => Uint8Array = keccak256,
  ) {
    const map = store instanceof MapDB ? mapUnder(store) : undefined
    this.readNow = map ? (key) => map.get(key) : store.getSync?.bind(store)
  }

  /**
   * The value at `key` under `root`; null when absent. Synchronous when every node on the path is decoded or
   * in a store that reads synchronously (the in-memory chain's): a promise only for a node read from disk.
   */
  get(root: Uint8Array, key: Uint8Array): Uint8Array | null | Promise<Uint8Array | null> {
    if (equalsBytes(root, KECCAK256_RLP)) return null
    const path = nibblesOf(this.pathOf(key))
    try {
      const next = this.node(root)
      return next instanceof Promise ? next.then((node) => this.walk(node, path, 0)) : this.walk(next, path, 0)
    } catch (err) {
      // a missing node fails the read as a store's would, never the caller's own code
      return Promise.reject(err)
    }
  }

  /** The rest of a key's walk from `node`, `at` nibbles down its path. */
  private walk(node: MPTNode, path: Uint8Array, at: number): Uint8Array | null | Promise<Uint8Array | null> {
    for (;;) {
      let next: MPTNode | Promise<MPTNode>
      if (node instanceof BranchMPTNode) {
        if (at === path.length) return node.value()
        const child = node.getBranch(path[at++]!)
        if (child === null) return null
        next = this.follow(child)
      } else {
        const nibbles = node.key()
        for (const nibble of nibbles) if (nibble !== path[at++]) return null
        if (!(node instanceof ExtensionMPTNode)) return at === path.length ? node.value() : null
        next = this.follow(node.value())
      }
      if (next instanceof Promise) {
        const from = at
        return next.then((loaded) => this.walk(loaded, path, from))
      }
      node = next
    }
  }

  /** Whether nodes are read without a promise (the in-memory store, a data directory's getSync). */
  get readsNow(): boolean {
    return this.readNow !== undefined
  }

  /**
   * The node named `hash`, at once (a store that reads without a promise), not kept in the decoded cache:
   * for walks over many nodes (the state snapshot's diffs) that would push out the ones reads share.
   */
  nodeNow(hash: Uint8Array): MPTNode {
    const id = hashId(hash)
    const known = this.decoded.get(id)
    if (known !== undefined && equalsBytes(known.hash, hash)) return known.node
    const name = hexKey(hash)
    return parseNode(name, this.readNow!(name))
  }

  /** The RLP-decoded value of a storage slot under a storage root (empty when unset), as a state manager gives it. */
  storage(storageRoot: Uint8Array, slot: Uint8Array): Uint8Array | Promise<Uint8Array> {
    const value = this.get(storageRoot, slot)
    return value instanceof Promise ? value.then(slotValue) : slotValue(value)
  }

  private follow(ref: NodeRef): MPTNode | Promise<MPTNode> {
    return isRawMPTNode(ref) ? decodeRawMPTNode(ref as Uint8Array[]) : this.node(ref as Uint8Array)
  }

  /** The node named `hash`: decoded already (no promise), or read from the store. */
  private node(hash: Uint8Array): MPTNode | Promise<MPTNode> {
    const id = hashId(hash)
    const known = this.decoded.get(id)
    return known !== undefined && equalsBytes(known.hash, hash) ? known.node : this.load(hash, id)
  }

  /** A node read from the store: at once from an in-memory store's map, else through its promise. */
  private load(hash: Uint8Array, id: number): MPTNode | Promise<MPTNode> {
    const name = hexKey(hash)
    if (this.readNow) return this.decode(hash, id, name, this.readNow(name))
    return this.store.get(name).then((stored) => this.decode(hash, id, name, stored))
  }

  private decode(hash: Uint8Array, id: number, name: string, stored: Uint8Array | string | undefined): MPTNode {
    const node = parseNode(name, stored)
    // a leaf serves one key, which the value caches above keep: keeping it here too only churns the heap; the
    // hash its own bytes: a child's hash is a view of its parent's
    if (!(node instanceof LeafMPTNode) && this.seen.again(id)) this.decoded.set(id, { hash: hash.slice(), node })
    return node
  }
}

function parseNode(name: string, stored: Uint8Array | string | undefined): MPTNode {
  // a node a read view cannot find is not an absent key: a pruned root, or a store that lost data
  if (stored === undefined) throw new Error(`state trie node ${name} is missing from the node store`)
  return readNode(typeof stored === 'string' ? unprefixedHexToBytes(stored) : stored)
}

/** An unset slot's value: one shared array (nothing can be written into it), not one per slot the caches keep. */
const UNSET = new Uint8Array(0)

/** A storage trie's value as a state manager gives a slot: RLP-decoded, empty when unset. */
function slotValue(value: Uint8Array | null): Uint8Array {
  return value === null ? UNSET : (RLP.decode(value) as Uint8Array)
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
