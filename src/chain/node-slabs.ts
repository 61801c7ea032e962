/**
 * Trie nodes packed many to an ArrayBuffer (a slab) instead of one Uint8Array and one ArrayBuffer each. An aged
 * in-memory chain holds hundreds of thousands of nodes: as objects (an array, its buffer, its off-heap store and
 * the buffer's extension V8 sweeps at every collection) they made each scavenge and each full mark cost more as
 * the state grew, and left the old space full of holes; here they are a few hundred large buffers V8 never looks
 * inside.
 *
 * A record: the node's length (negative once deleted), how many parents and roots hold it (memory-pruner.ts),
 * the node's 32-byte hash, its bytes; 8-byte aligned. A place (slab and offset) is one small integer.
 * Bytes once written are never written again: a slab that deletes have thinned below half is copied out (its
 * live records onto the newest slab) and dropped, so a view handed out stays right while anyone holds it.
 */
import { NODE_SLAB_BYTES } from '../limits.js'

const HEADER = 40
/** Offsets are counted in 8-byte units: a place is (slab << SHIFT) + unit, a small integer up to 8 192 slabs. */
const SHIFT = Math.log2(NODE_SLAB_BYTES / 8)
const slabOf = (place: number) => place >>> SHIFT
/** A record's byte offset in its slab. */
const offsetOf = (place: number) => (place & ((1 << SHIFT) - 1)) << 3
const placeOf = (slab: number, offset: number) => (slab << SHIFT) + (offset >> 3)

/** A record's place changed: the index holding `from` must hold `to`. */
export type Moved = (hash: Uint8Array, from: number, to: number) => void

export class NodeSlabs {
  private readonly bytes: Uint8Array[] = []
  private readonly words: Int32Array[] = []
  /** Where each slab's records end. */
  private readonly ends: number[] = []
  /** Bytes of live records in each slab. */
  private readonly live: number[] = []
  /** Slab numbers dropped, for reuse. */
  private readonly free: number[] = []
  private current = -1

  constructor(private readonly moved: Moved) {}

  /** Stores a node named `key` (64 hex characters): its place. */
  add(key: string, value: Uint8Array): number {
    const place = this.reserve(value.length)
    const bytes = this.bytes[slabOf(place)]!
    const at = offsetOf(place)
    for (let i = 0; i < 32; i++) bytes[at + 8 + i] = (nibble(key, 2 * i) << 4) | nibble(key, 2 * i + 1)
    bytes.set(value, at + HEADER)
    return place
  }

  /** The node's bytes, a view of its slab. */
  view(place: number): Uint8Array {
    const slab = slabOf(place)
    const at = offsetOf(place)
    return this.bytes[slab]!.subarray(at + HEADER, at + HEADER + this.words[slab]![at >> 2]!)
  }

  hash(place: number): Uint8Array {
    const at = offsetOf(place)
    return this.bytes[slabOf(place)]!.subarray(at + 8, at + HEADER)
  }

  /** Whether the node at `place` is named `key` (64 hex characters). */
  named(place: number, key: string): boolean {
    const bytes = this.bytes[slabOf(place)]!
    const at = offsetOf(place) + 8
    for (let i = 0; i < 32; i++)
      if (bytes[at + i] !== ((nibble(key, 2 * i) << 4) | nibble(key, 2 * i + 1))) return false
    return true
  }

  refs(place: number): number {
    return this.words[slabOf(place)]![(offsetOf(place) >> 2) + 1]!
  }

  setRefs(place: number, refs: number): void {
    this.words[slabOf(place)]![(offsetOf(place) >> 2) + 1] = refs
  }

  /** Deletes the record; its slab is copied out and dropped once less than half of it is live. */
  remove(place: number): void {
    const slab = slabOf(place)
    const words = this.words[slab]!
    const at = offsetOf(place) >> 2
    const length = words[at]!
    words[at] = -1 - length
    this.live[slab]! -= size(length)
    if (slab !== this.current && this.live[slab]! < this.bytes[slab]!.length / 2) this.compact(slab)
  }

  /** Every live record's place. */
  *places(): Generator<number> {
    for (let slab = 0; slab < this.bytes.length; slab++) yield* this.slab(slab)
  }

  /** Room for a record of a node of `length` bytes: its place. */
  private reserve(length: number): number {
    const need = size(length)
    // a node larger than a slab (none of a state trie's is) gets one of its own, which its deletion drops
    if (need > NODE_SLAB_BYTES) return this.record(this.open(need), length)
    if (this.current < 0 || this.ends[this.current]! + need > NODE_SLAB_BYTES) this.current = this.open(NODE_SLAB_BYTES)
    return this.record(this.current, length)
  }

  /** A record at the end of `slab`, its header written. */
  private record(slab: number, length: number): number {
    const at = this.ends[slab]!
    this.words[slab]![at >> 2] = length
    this.words[slab]![(at >> 2) + 1] = 0
    this.ends[slab] = at + size(length)
    this.live[slab]! += size(length)
    return placeOf(slab, at)
  }

  private open(bytes: number): number {
    const slab = this.free.pop() ?? this.bytes.length
    const buffer = new ArrayBuffer(bytes)
    this.bytes[slab] = new Uint8Array(buffer)
    this.words[slab] = new Int32Array(buffer)
    this.ends[slab] = 0
    this.live[slab] = 0
    return slab
  }

  /** Copies the slab's live records onto the newest slab and drops it. */
  private compact(slab: number): void {
    const bytes = this.bytes[slab]!
    for (const from of this.slab(slab)) {
      const at = offsetOf(from)
      const length = this.words[slab]![at >> 2]!
      const to = this.reserve(length)
      // the rest of the header (the count and the hash) and the node
      this.bytes[slabOf(to)]!.set(bytes.subarray(at + 4, at + HEADER + length), offsetOf(to) + 4)
      this.moved(bytes.subarray(at + 8, at + HEADER), from, to)
    }
    this.bytes[slab] = EMPTY
    this.words[slab] = EMPTY_WORDS
    this.ends[slab] = 0
    this.live[slab] = 0
    this.free.push(slab)
  }

  /** The live records of one slab. */
  private *slab(slab: number): Generator<number> {
    const words = this.words[slab]!
    for (let at = 0; at < this.ends[slab]!; ) {
      const length = words[at >> 2]!
      if (length >= 0) yield placeOf(slab, at)
      at += size(length < 0 ? -1 - length : length)
    }
  }
}

const EMPTY = new Uint8Array(0)
const EMPTY_WORDS = new Int32Array(0)

/** A record's size for a node of `length` bytes, 8-byte aligned. */
const size = (length: number) => (HEADER + length + 7) & ~7

/** hashId of the hash a 64-character hex key names (its first 32 bits less the last), read in place. */
export function idOf(key: string): number {
  let id = 0
  for (let i = 0; i < 8; i++) id = (id << 4) | nibble(key, i)
  return id >>> 1
}

/** The value of the hex digit at `i` of `key`. */
function nibble(key: string, i: number): number {
  const c = key.charCodeAt(i)
  return c < 58 ? c - 48 : (c | 32) - 87
}
