/**
 * --data-dir: the trie nodes read or written lately, kept in front of LevelDB packed into two large buffers
 * instead of @ethereumjs's LRU of hex-string keys and one Uint8Array per node. An aged chain's LRU was most of its
 * live heap (50 000 entries: ~43 MB and hundreds of thousands of objects every full GC marks); here a generation is
 * one byte buffer and one slot table V8 never looks inside, whatever the count.
 *
 * Two generations approximate an LRU: nodes go into the young one; when it is full it becomes the old one and the
 * previous old one is dropped whole; a node read from the old generation is copied into the young one, so what is
 * read keeps living. A record: its length (-1 once deleted), the node's 32-byte hash, its bytes. Reads return a
 * copy, so no caller's view keeps a dropped generation alive. Nodes are named by their hash (the same key is the
 * same bytes), so only a delete (a prune, a trie's del) can make a record wrong: it is marked, never rewritten.
 */
import { TRIE_NODE_CACHE_BYTES } from '../../limits.js'

const KEY = 32
const HEADER = 4 + KEY
/** Slots per generation: one per 64 bytes of buffer, so a table never fills past ~3/4 before its buffer does. */
const BYTES_PER_SLOT = 64

class Generation {
  readonly bytes: Uint8Array
  private readonly data: DataView
  /** Open addressing by the hash's first four bytes: a record's offset + 1, 0 for an empty slot. */
  private readonly slots: Int32Array
  private readonly mask: number
  private end = 0
  private count = 0

  constructor(size: number) {
    this.bytes = new Uint8Array(size)
    this.data = new DataView(this.bytes.buffer)
    this.slots = new Int32Array(2 ** Math.ceil(Math.log2(size / BYTES_PER_SLOT)))
    this.mask = this.slots.length - 1
  }

  /** The offset of the live record of `key`; -1 when none. */
  find(key: Uint8Array): number {
    for (let slot = first(key) & this.mask; ; slot = (slot + 1) & this.mask) {
      const at = this.slots[slot]! - 1
      if (at < 0) return -1
      if (this.data.getInt32(at) >= 0 && sameKey(this.bytes, at + 4, key)) return at
    }
  }

  /** Stores a record; false when the buffer or the table has no room for it. */
  add(key: Uint8Array, value: Uint8Array): boolean {
    const at = this.end
    if (at + HEADER + value.length > this.bytes.length || 4 * (this.count + 1) > 3 * this.slots.length) return false
    this.data.setInt32(at, value.length)
    this.bytes.set(key, at + 4)
    this.bytes.set(value, at + HEADER)
    this.end = at + HEADER + value.length
    this.count++
    let slot = first(key) & this.mask
    while (this.slots[slot] !== 0) slot = (slot + 1) & this.mask
    this.slots[slot] = at + 1
    return true
  }

  /** A copy of the record's node. */
  value(at: number): Uint8Array {
    return this.bytes.slice(at + HEADER, at + HEADER + this.data.getInt32(at))
  }

  delete(at: number): void {
    this.data.setInt32(at, -1)
  }
}

export class NodeCache {
  private young: Generation
  private old?: Generation

  /** `bytes`: both generations together. */
  constructor(private readonly bytes = TRIE_NODE_CACHE_BYTES) {
    this.young = new Generation(bytes / 2)
  }

  /** A copy of the node named `key` (its 32-byte hash); undefined when not kept. */
  get(key: Uint8Array): Uint8Array | undefined {
    if (key.length !== KEY) return undefined
    const at = this.young.find(key)
    if (at >= 0) return this.young.value(at)
    const old = this.old
    const was = old?.find(key) ?? -1
    if (old === undefined || was < 0) return undefined
    const value = old.value(was)
    old.delete(was)
    this.set(key, value)
    return value
  }

  set(key: Uint8Array, value: Uint8Array): void {
    if (key.length !== KEY || HEADER + value.length > this.bytes / 2) return
    if (this.young.find(key) >= 0) return
    if (this.young.add(key, value)) return
    this.old = this.young
    this.young = new Generation(this.bytes / 2)
    this.young.add(key, value)
  }

  delete(key: Uint8Array): void {
    if (key.length !== KEY) return
    for (const generation of [this.young, this.old]) {
      const at = generation?.find(key) ?? -1
      if (at >= 0) generation!.delete(at)
    }
  }
}

const first = (key: Uint8Array) => ((key[0]! << 24) | (key[1]! << 16) | (key[2]! << 8) | key[3]!) >>> 0

function sameKey(bytes: Uint8Array, at: number, key: Uint8Array): boolean {
  for (let i = 0; i < KEY; i++) if (bytes[at + i] !== key[i]) return false
  return true
}
