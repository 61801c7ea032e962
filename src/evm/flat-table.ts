/**
 * A map from fixed-length hashed keys to short byte values, kept in two typed arrays: the records (key, length,
 * value) appended to one byte arena, and an open-addressed index of their offsets. The state snapshot
 * (snapshot.ts) holds every account and slot of a state this way: an entry costs its bytes plus four of index,
 * and the heap holds two objects however many entries there are (a Map of Uint8Arrays costs ~200 bytes an
 * entry and gives the collector one object each to trace).
 *
 * A value read is a view of the arena, right until the next write: copy or decode it at once.
 */
const TOMBSTONE = 255
const FIRST_INDEX = 1 << 10
const FIRST_ARENA = 1 << 14
const SMALL_INDEX = 1 << 6
const SMALL_ARENA = 1 << 10

export class FlatTable {
  /** Offsets of records, plus one (0: an empty cell); linear probing, kept at most half full. */
  private index: Int32Array
  private data: Uint8Array
  private end = 0
  /** Bytes of records that were replaced or deleted, given back when the arena is compacted. */
  private dead = 0
  size = 0
  /** The arena's first length: a rehash makes none smaller, and compacts only a larger one. */
  private readonly leastArena: number

  /**
   * `keyLength`: a multiple of 32 bytes, each 32 a hash (their first words place a key in the index).
   * `small`: a table expected to hold a few entries (a pending layer: made at the first read of every new
   * flashblock root, where the 40 KB of a full-size pair's zeroed arrays were a measurable part of that read).
   */
  constructor(
    private readonly keyLength: number,
    small = false,
  ) {
    this.index = new Int32Array(small ? SMALL_INDEX : FIRST_INDEX)
    this.data = new Uint8Array(small ? SMALL_ARENA : FIRST_ARENA)
    this.leastArena = this.data.length
  }

  /** A table of the same entries that changes apart from this one. */
  copy(): FlatTable {
    const copy = new FlatTable(this.keyLength, true)
    copy.index = this.index.slice()
    copy.data = this.data.slice()
    copy.end = this.end
    copy.dead = this.dead
    copy.size = this.size
    return copy
  }

  /** The value; null when the key was set to absent (a layer's deletion), undefined when it was never set. */
  get(key: Uint8Array): Uint8Array | null | undefined {
    const cell = this.find(key)
    if (cell < 0) return undefined
    const at = this.index[cell]! - 1 + this.keyLength
    const length = this.data[at]!
    return length === TOMBSTONE ? null : this.data.subarray(at + 1, at + 1 + length)
  }

  /** Sets the key's value; null records it as absent (for a layer over another table). */
  set(key: Uint8Array, value: Uint8Array | null): void {
    if (value && value.length >= TOMBSTONE) throw new Error(`flat table value of ${value.length} bytes`)
    const length = value === null ? TOMBSTONE : value.length
    const cell = this.find(key)
    if (cell >= 0) {
      const at = this.index[cell]! - 1 + this.keyLength
      if (this.data[at] === length) {
        if (value) this.data.set(value, at + 1)
        return
      }
      this.dead += this.recordBytes(at - this.keyLength)
      this.index[cell] = this.append(key, value) + 1
      this.compactIfSparse()
      return
    }
    this.index[~cell] = this.append(key, value) + 1
    if (++this.size * 2 > this.index.length) this.rehash(this.index.length * 2)
  }

  /** Forgets the key (backward-shift deletion: no tombstones in the index). */
  delete(key: Uint8Array): void {
    let cell = this.find(key)
    if (cell < 0) return
    this.dead += this.recordBytes(this.index[cell]! - 1)
    const mask = this.index.length - 1
    for (let next = (cell + 1) & mask; this.index[next] !== 0; next = (next + 1) & mask) {
      const home = this.home(this.index[next]! - 1)
      // the entry at `next` may move into the hole unless its home lies cyclically in (cell, next]
      const stays = cell <= next ? home > cell && home <= next : home > cell || home <= next
      if (stays) continue
      this.index[cell] = this.index[next]!
      cell = next
    }
    this.index[cell] = 0
    this.size--
    this.compactIfSparse()
  }

  /** Every entry, in no order (views of the arena, right until the next write). */
  *entries(): Generator<[Uint8Array, Uint8Array | null]> {
    for (const entry of this.index) {
      if (entry === 0) continue
      const at = entry - 1
      const length = this.data[at + this.keyLength]!
      const value =
        length === TOMBSTONE ? null : this.data.subarray(at + this.keyLength + 1, at + this.keyLength + 1 + length)
      yield [this.data.subarray(at, at + this.keyLength), value]
    }
  }

  private compactIfSparse(): void {
    if (this.dead > this.leastArena && this.dead * 2 > this.end) this.rehash(this.index.length)
  }

  /** The cell holding `key`, or the bitwise complement of the empty cell where it would go. */
  private find(key: Uint8Array): number {
    const mask = this.index.length - 1
    const { data, keyLength } = this
    for (let cell = place(key, 0, keyLength) & mask; ; cell = (cell + 1) & mask) {
      const entry = this.index[cell]!
      if (entry === 0) return ~cell
      let at = entry - 1
      let i = 0
      while (i < keyLength && data[at++] === key[i]) i++
      if (i === keyLength) return cell
    }
  }

  private home(at: number): number {
    return place(this.data, at, this.keyLength) & (this.index.length - 1)
  }

  private recordBytes(at: number): number {
    const length = this.data[at + this.keyLength]!
    return this.keyLength + 1 + (length === TOMBSTONE ? 0 : length)
  }

  private append(key: Uint8Array, value: Uint8Array | null): number {
    const bytes = this.keyLength + 1 + (value?.length ?? 0)
    if (this.end + bytes > this.data.length) this.grow(this.end + bytes)
    const at = this.end
    this.data.set(key, at)
    this.data[at + this.keyLength] = value === null ? TOMBSTONE : value.length
    if (value) this.data.set(value, at + this.keyLength + 1)
    this.end += bytes
    return at
  }

  private grow(needed: number): void {
    let length = this.data.length * 2
    while (length < needed) length *= 2
    const data = new Uint8Array(length)
    data.set(this.data.subarray(0, this.end))
    this.data = data
  }

  /** A new index of `cells`, the live records copied to a new arena in index order (dead bytes dropped). */
  private rehash(cells: number): void {
    const old = this.index
    const from = this.data
    this.index = new Int32Array(cells)
    this.data = new Uint8Array(Math.max(this.leastArena, 2 ** Math.ceil(Math.log2(this.end - this.dead + 1))))
    this.end = 0
    this.dead = 0
    const mask = cells - 1
    for (const entry of old) {
      if (entry === 0) continue
      const at = entry - 1
      const bytes = this.keyLength + 1 + (from[at + this.keyLength] === TOMBSTONE ? 0 : from[at + this.keyLength]!)
      if (this.end + bytes > this.data.length) this.grow(this.end + bytes)
      this.data.set(from.subarray(at, at + bytes), this.end)
      let cell = place(this.data, this.end, this.keyLength) & mask
      while (this.index[cell] !== 0) cell = (cell + 1) & mask
      this.index[cell] = this.end + 1
      this.end += bytes
    }
  }
}

/** Where a key goes in the index: the first word of each of its hashes (uniform, being keccak), mixed. */
function place(bytes: Uint8Array, at: number, keyLength: number): number {
  let word = 0
  for (let i = at; i < at + keyLength; i += 32)
    word = Math.imul(
      word ^ ((bytes[i]! << 24) | (bytes[i + 1]! << 16) | (bytes[i + 2]! << 8) | bytes[i + 3]!),
      0x9e3779b1,
    )
  return word >>> 0
}
