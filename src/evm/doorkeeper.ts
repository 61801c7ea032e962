/**
 * A cache's admission filter (TinyLFU's doorkeeper, in small): which ids were asked for before. A cache that
 * keeps everything it reads keeps, under a stream of one-off reads (a new address or holder in every request),
 * an entry per request that nobody asks for again, and each one outlives the young generation's collections:
 * copied by scavenges, then promoted, marked and compacted by the old generation's (V8's helper threads), for
 * nothing. A cache asks `again(id)` on a miss and keeps its entry only when the id was seen before: the first
 * sighting leaves just the id here.
 *
 * The ids are in a direct-mapped table of numbers, one typed array: nothing is allocated per id, so the filter
 * costs the collector nothing. A newer id in the same slot pushes an older one out (that one is kept a sighting
 * later), and two ids may be one number (the second is then kept at its first sighting): either way only what
 * a cache keeps changes, never what it answers.
 */
export class Doorkeeper {
  private readonly ids: Int32Array
  private readonly mask: number

  /** `slots`: a power of two. */
  constructor(slots: number) {
    this.ids = new Int32Array(slots).fill(-1)
    this.mask = slots - 1
  }

  /** Whether `id` (a non-negative 31-bit number) was seen before; it is seen from now on either way. */
  again(id: number): boolean {
    const slot = id & this.mask
    if (this.ids[slot] === id) return true
    this.ids[slot] = id
    return false
  }
}
