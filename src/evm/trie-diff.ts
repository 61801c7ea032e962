/**
 * What changed between two roots of a hashed-key trie, found by walking both at once and skipping every subtree
 * whose node hash is the same on both sides: the cost is the size of the change, not of the state. Against the
 * empty root it lists a whole trie (the state snapshot's generation, snapshot.ts). It knows nothing of who
 * wrote the change: a block, a flashblock, an import, a refork all look the same.
 */
import {
  BranchMPTNode,
  decodeRawMPTNode,
  ExtensionMPTNode,
  isRawMPTNode,
  LeafMPTNode,
  type MPTNode,
} from '@ethereumjs/mpt'
import { equalsBytes, KECCAK256_RLP } from '@ethereumjs/util'
import { ViewBranch } from './trie-node.js'

/** A node by its hash, at once (the snapshot keeps up only with stores that read without a promise). */
export type LoadNode = (hash: Uint8Array) => MPTNode

/** One key whose value differs: `key` the 32-byte hashed key (a new array), null for an absent side. */
export type Changed = (key: Uint8Array, before: Uint8Array | null, after: Uint8Array | null) => void

/**
 * A place in a trie: a node, and for an extension or leaf its key (copied once: key() copies at every call)
 * and how many of its nibbles are behind.
 */
type Place = { node: MPTNode; skip: number; hash: Uint8Array | undefined; key: number[] | undefined }

const KEY_NIBBLES = 64

/**
 * Calls `changed` for every key whose value differs between the tries at `before` and `after`; with
 * `prefix` (nibbles), only for the keys under it (so a trie can be listed a part at a time).
 */
export function diffTries(
  load: LoadNode,
  before: Uint8Array,
  after: Uint8Array,
  changed: Changed,
  prefix: readonly number[] = [],
): void {
  const path = new Uint8Array(KEY_NIBBLES)
  let a = rootPlace(load, before)
  let b = rootPlace(load, after)
  prefix.forEach((nibble, depth) => {
    path[depth] = nibble
    a = childAt(load, a, nibble)
    b = childAt(load, b, nibble)
  })
  diff(load, a, b, path, prefix.length, changed)
}

function diff(
  load: LoadNode,
  a: Place | null,
  b: Place | null,
  path: Uint8Array,
  depth: number,
  changed: Changed,
): void {
  if (a === null && b === null) return
  if (a?.hash && b?.hash && a.skip === b.skip && equalsBytes(a.hash, b.hash)) return
  const aLeaf = a === null || a.node instanceof LeafMPTNode
  const bLeaf = b === null || b.node instanceof LeafMPTNode
  if (aLeaf && bLeaf) {
    const keyA = a && keyOf(path, depth, a)
    const keyB = b && keyOf(path, depth, b)
    const valueA = a && (a.node as LeafMPTNode).value()
    const valueB = b && (b.node as LeafMPTNode).value()
    if (keyA && keyB && equalsBytes(keyA, keyB)) {
      if (!equalsBytes(valueA!, valueB!)) changed(keyB, valueA, valueB)
      return
    }
    if (keyA) changed(keyA, valueA, null)
    if (keyB) changed(keyB, null, valueB)
    return
  }
  if (depth >= KEY_NIBBLES) throw new Error('trie diff: a key longer than a hash')
  const views = a?.node instanceof ViewBranch && b?.node instanceof ViewBranch
  const branches = views || (a?.node instanceof BranchMPTNode && b?.node instanceof BranchMPTNode)
  for (let nibble = 0; nibble < 16; nibble++) {
    // the same child reference on both sides: nothing under it differs, and neither node need be read
    if (views ? (a!.node as ViewBranch).sameChild(nibble, b!.node as ViewBranch) : branches && sameRef(a!, b!, nibble))
      continue
    const childA = childAt(load, a, nibble)
    const childB = childAt(load, b, nibble)
    if (childA === null && childB === null) continue
    path[depth] = nibble
    diff(load, childA, childB, path, depth + 1, changed)
  }
}

function sameRef(placeA: Place, placeB: Place, nibble: number): boolean {
  const a = (placeA.node as BranchMPTNode).getBranch(nibble)
  const b = (placeB.node as BranchMPTNode).getBranch(nibble)
  if (a === null || b === null) return a === b
  return !isRawMPTNode(a) && !isRawMPTNode(b) && equalsBytes(a as Uint8Array, b as Uint8Array)
}

function rootPlace(load: LoadNode, root: Uint8Array): Place | null {
  return equalsBytes(root, KECCAK256_RLP) ? null : placeOf(load, root)
}

/** The place one nibble further down, or null when nothing is under it. */
function childAt(load: LoadNode, place: Place | null, nibble: number): Place | null {
  if (place === null) return null
  const { node } = place
  if (node instanceof BranchMPTNode) {
    const ref = node.getBranch(nibble)
    return ref === null ? null : settled(load, placeOf(load, ref))
  }
  const key = place.key!
  if (place.skip >= key.length || key[place.skip] !== nibble) return null
  return settled(load, { node, skip: place.skip + 1, hash: place.hash, key })
}

/** An extension whose whole key is behind is its child. */
function settled(load: LoadNode, place: Place): Place {
  const { node } = place
  if (node instanceof ExtensionMPTNode && place.skip === place.key!.length) return placeOf(load, node.value())
  return place
}

function placeOf(load: LoadNode, ref: Uint8Array | Uint8Array[]): Place {
  const raw = isRawMPTNode(ref)
  const node = raw ? decodeRawMPTNode(ref as Uint8Array[]) : load(ref as Uint8Array)
  const key = node instanceof BranchMPTNode ? undefined : (node as ExtensionMPTNode | LeafMPTNode).key()
  return settled(load, { node, skip: 0, hash: raw ? undefined : (ref as Uint8Array), key })
}

/** A leaf's full key: the nibbles walked to it and the rest of its own, as bytes. */
function keyOf(path: Uint8Array, depth: number, leaf: Place): Uint8Array {
  const rest = leaf.key!
  const nibbles = new Uint8Array(KEY_NIBBLES)
  nibbles.set(path.subarray(0, depth))
  for (let i = leaf.skip; i < rest.length; i++) nibbles[depth + i - leaf.skip] = rest[i]!
  if (depth + rest.length - leaf.skip !== KEY_NIBBLES) throw new Error('trie diff: a key that is not a hash')
  const key = new Uint8Array(KEY_NIBBLES / 2)
  for (let i = 0; i < key.length; i++) key[i] = (nibbles[2 * i]! << 4) | nibbles[2 * i + 1]!
  return key
}
