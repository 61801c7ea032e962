/**
 * A set of short byte strings (up to 255 bytes: addresses, storage slots) that only grows, packed into one
 * buffer and found by a number (FNV-1a of the bytes, 31 bits) instead of a string each: an in-memory chain's
 * preimages, one per account and slot ever written (180 000 an hour at 50 new accounts a second), are then no
 * heap objects at all, where a hex string each was one more object for every collection to mark.
 * Two byte strings may share an id: the one that came second is found by its hex.
 */
import { hexKey } from '../domain/map-keys.js'

export class PackedBytes {
  /** Records: a length byte, then the bytes. */
  private buffer = new Uint8Array(1 << 16)
  private end = 0
  private readonly ids = new Map<number, number>()
  private readonly shared = new Map<string, number>()

  get size(): number {
    return this.ids.size + this.shared.size
  }

  has(bytes: Uint8Array): boolean {
    const at = this.ids.get(idOf(bytes))
    if (at !== undefined && this.holds(at, bytes)) return true
    return this.shared.size > 0 && this.shared.has(hexKey(bytes))
  }

  add(bytes: Uint8Array): void {
    if (bytes.length > 255) throw new RangeError(`${bytes.length} bytes: a PackedBytes entry is at most 255`)
    if (this.has(bytes)) return
    if (this.end + 1 + bytes.length > this.buffer.length) {
      const grown = new Uint8Array(this.buffer.length * 2)
      grown.set(this.buffer.subarray(0, this.end))
      this.buffer = grown
    }
    const at = this.end
    this.buffer[at] = bytes.length
    this.buffer.set(bytes, at + 1)
    this.end += 1 + bytes.length
    const id = idOf(bytes)
    if (this.ids.has(id)) this.shared.set(hexKey(bytes), at)
    else this.ids.set(id, at)
  }

  /** Every entry, as a copy. */
  *[Symbol.iterator](): Generator<Uint8Array> {
    for (let at = 0; at < this.end; at += 1 + this.buffer[at]!)
      yield this.buffer.slice(at + 1, at + 1 + this.buffer[at]!)
  }

  private holds(at: number, bytes: Uint8Array): boolean {
    if (this.buffer[at] !== bytes.length) return false
    for (let i = 0; i < bytes.length; i++) if (this.buffer[at + 1 + i] !== bytes[i]) return false
    return true
  }
}

/** FNV-1a of the bytes, 31 bits (a small integer). */
function idOf(bytes: Uint8Array): number {
  let hash = 0x811c9dc5
  for (let i = 0; i < bytes.length; i++) hash = Math.imul(hash ^ bytes[i]!, 0x01000193)
  return hash >>> 1
}
