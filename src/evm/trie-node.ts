/**
 * Stored trie nodes decoded for reading (TrieReader, the state snapshot's trie diffs). @ethereumjs's
 * decodeMPTNode copies the bytes element by element (Uint8Array.from), then RLP-decodes them copying every item
 * again: a branch became 17 arrays each with its own ArrayBuffer, ~35 heap objects, decoded again by every diff
 * and kept by the thousand in TrieReader's cache. Here a node's bytes are copied once (the store's may be a view
 * of a slab or of a pooled buffer, which a view would keep alive) and a branch keeps where each of its items
 * starts: five heap objects, a child's reference a view made when asked. Read-only nodes: never give them to a
 * writer.
 *
 * The RLP is read in place (domain/rlp-views.ts: why not @ethereumjs/rlp's decode): `checkedEnd` holds a node
 * to decode's rules (nothing past the end, canonical lengths, no trailing bytes: trie-node.test.ts compares the
 * two on malformed bytes) before the unchecked walk reads it.
 */
import {
  BranchMPTNode,
  type BranchMPTNodeBranchValue,
  ExtensionMPTNode,
  LeafMPTNode,
  type MPTNode,
  type NodeReferenceOrRawMPTNode,
} from '@ethereumjs/mpt'
import {
  checkedEnd as checkedItemEnd,
  headerLength,
  type Item,
  itemAt as itemViews,
  itemEnd as itemEndOf,
} from '../domain/rlp-views.js'

const EMPTY_STRING = 0x80
/** The first byte of a 32-byte string: a child's hash. */
const HASH = 0xa0
const BRANCH_ITEMS = 17

const invalid = () => new Error('state trie node: invalid RLP')
const itemAt = (bytes: Uint8Array, at: number, limit: number) => itemViews(bytes, at, limit, invalid)
const itemEnd = (bytes: Uint8Array, at: number) => itemEndOf(bytes, at, invalid)
const checkedEnd = (bytes: Uint8Array, at: number, limit: number) => checkedItemEnd(bytes, at, limit, invalid)

/** A branch over its own bytes: `starts[i]` is where item i (children 0-15, the value 16) begins, [17] the end. */
export class ViewBranch extends BranchMPTNode {
  constructor(
    private readonly bytes: Uint8Array,
    private readonly starts: Uint16Array,
  ) {
    super()
  }

  override getBranch(nibble: number): BranchMPTNodeBranchValue {
    const at = this.starts[nibble]!
    const first = this.bytes[at]!
    if (first === EMPTY_STRING) return null
    if (first === HASH) return this.bytes.subarray(at + 1, at + 33)
    return itemAt(this.bytes, at, this.starts[nibble + 1]!) as BranchMPTNodeBranchValue
  }

  override value(set?: Uint8Array | null): Uint8Array | null {
    if (set !== undefined) throw new Error('a read-only trie node was written')
    const value = itemAt(this.bytes, this.starts[16]!, this.starts[17]!) as Uint8Array
    return value.length > 0 ? value : null
  }

  override setBranch(): void {
    throw new Error('a read-only trie node was written')
  }

  override raw(): BranchMPTNodeBranchValue[] {
    return itemAt(this.bytes, 0, this.bytes.length) as BranchMPTNodeBranchValue[]
  }

  override getChildren(): [number, NodeReferenceOrRawMPTNode][] {
    const children: [number, NodeReferenceOrRawMPTNode][] = []
    for (let nibble = 0; nibble < 16; nibble++) {
      const child = this.getBranch(nibble)
      if (child !== null) children.push([nibble, child])
    }
    return children
  }

  /** Whether child `nibble` is the same reference here and in `other`: the same subtree under both. */
  sameChild(nibble: number, other: ViewBranch): boolean {
    const at = this.starts[nibble]!
    const length = this.starts[nibble + 1]! - at
    const otherAt = other.starts[nibble]!
    if (other.starts[nibble + 1]! - otherAt !== length) return false
    for (let i = 0; i < length; i++) if (this.bytes[at + i] !== other.bytes[otherAt + i]) return false
    return true
  }
}

/** A node from its stored bytes (RLP), as @ethereumjs's decodeMPTNode gives it, over one copy of them. */
export function readNode(stored: Uint8Array): MPTNode {
  // every item checked once here; the walks below (and a branch's later reads) trust the headers
  if (stored.length === 0 || stored[0]! < 0xc0 || checkedEnd(stored, 0, stored.length) !== stored.length)
    throw invalid()
  const first = headerLength(stored, 0)
  let count = 0
  let end = first
  while (end < stored.length) {
    end = itemEnd(stored, end)
    count++
  }
  if (stored.length > 0xffff) throw invalid()
  if (count === BRANCH_ITEMS) {
    // the bytes, then the starts (2-byte aligned) in the same ArrayBuffer
    const padded = stored.length + (stored.length & 1)
    const buffer = new ArrayBuffer(padded + 2 * (BRANCH_ITEMS + 1))
    const bytes = new Uint8Array(buffer, 0, stored.length)
    bytes.set(stored)
    const starts = new Uint16Array(buffer, padded, BRANCH_ITEMS + 1)
    let at = first
    for (let i = 0; i < BRANCH_ITEMS; i++) {
      starts[i] = at
      at = itemEnd(bytes, at)
    }
    starts[BRANCH_ITEMS] = at
    return new ViewBranch(bytes, starts)
  }
  if (count !== 2) throw invalid()
  const bytes = stored.slice()
  const [path, value] = itemAt(bytes, 0, bytes.length) as [Uint8Array, Item]
  if (!(path instanceof Uint8Array) || path.length === 0) throw invalid()
  // hex-prefix encoding: a first nibble of 2 or more marks a leaf (geth's hasTerm and @ethereumjs read 4-15 so too),
  // its 1 bit an odd length (the second nibble is a key's)
  const flag = path[0]! >> 4
  const nibbles: number[] = []
  if (flag & 1) nibbles.push(path[0]! & 15)
  for (let i = 1; i < path.length; i++) nibbles.push(path[i]! >> 4, path[i]! & 15)
  if (flag >= 2) return new LeafMPTNode(nibbles, value as Uint8Array)
  return new ExtensionMPTNode(nibbles, value as Uint8Array)
}
