/**
 * A map of non-negative 31-bit integers to integers in two typed arrays (open addressing, linear probing, kept at
 * most half full): how MemoryNodes finds a node's place by its hash's id. A Map of a few hundred thousand numbers
 * was one large table every full GC walked (7 MB in an aged chain), and its keys of 2^30 and above were heap
 * numbers, one object each; here the heap holds two buffers V8 never looks inside, however many entries.
 * The keys are hash bits already, so a key's low bits place it.
 */
const EMPTY = -1
const FIRST_CELLS = 1 << 10

export class IntTable {
  private keys = new Int32Array(FIRST_CELLS).fill(EMPTY)
  private values = new Int32Array(FIRST_CELLS)
  size = 0

  get(key: number): number | undefined {
    const cell = this.find(key)
    return cell < 0 ? undefined : this.values[cell]
  }

  has(key: number): boolean {
    return this.find(key) >= 0
  }

  set(key: number, value: number): void {
    const cell = this.find(key)
    if (cell >= 0) {
      this.values[cell] = value
      return
    }
    this.keys[~cell] = key
    this.values[~cell] = value
    if (++this.size * 2 > this.keys.length) this.rehash(this.keys.length * 2)
  }

  /** Forgets the key (backward-shift deletion: no tombstones). */
  delete(key: number): boolean {
    let cell = this.find(key)
    if (cell < 0) return false
    const mask = this.keys.length - 1
    for (let next = (cell + 1) & mask; this.keys[next] !== EMPTY; next = (next + 1) & mask) {
      const home = this.keys[next]! & mask
      // the entry at `next` may move into the hole unless its home lies cyclically in (cell, next]
      const stays = cell <= next ? home > cell && home <= next : home > cell || home <= next
      if (stays) continue
      this.keys[cell] = this.keys[next]!
      this.values[cell] = this.values[next]!
      cell = next
    }
    this.keys[cell] = EMPTY
    this.size--
    return true
  }

  /** The cell holding `key`, or the bitwise complement of the empty cell where it would go. */
  private find(key: number): number {
    const mask = this.keys.length - 1
    for (let cell = key & mask; ; cell = (cell + 1) & mask) {
      const at = this.keys[cell]!
      if (at === key) return cell
      if (at === EMPTY) return ~cell
    }
  }

  private rehash(cells: number): void {
    const { keys, values } = this
    this.keys = new Int32Array(cells).fill(EMPTY)
    this.values = new Int32Array(cells)
    for (let i = 0; i < keys.length; i++) {
      if (keys[i] === EMPTY) continue
      const cell = ~this.find(keys[i]!)
      this.keys[cell] = keys[i]!
      this.values[cell] = values[i]!
    }
  }
}
