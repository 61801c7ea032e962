/**
 * A Map that drops its oldest entries once their total weight passes `capacity`: the read path's caches.
 * The oldest are found in an array of keys in insertion order, not by iterating the Map: a Map that keeps
 * dropping its first entries is full of deleted slots at its start until it is rehashed, and each fresh
 * iterator walks past all of them (at capacity that walk was most of a distinct eth_getBalance's CPU).
 */
export class BoundedMap<V, K extends string | number = string> {
  private readonly map = new Map<K, V>()
  /** Keys in insertion order from `head` on (a key deleted and set again is in it twice: see delete). */
  private order: K[] = []
  private head = 0
  private total = 0

  constructor(
    private readonly capacity: number,
    private readonly weigh: (value: V) => number = () => 1,
  ) {}

  get size(): number {
    return this.map.size
  }

  get(key: K): V | undefined {
    return this.map.get(key)
  }

  /** A key set again keeps its place (caches set a key after missing it, so that is rare). */
  set(key: K, value: V): void {
    const old = this.map.get(key)
    if (old !== undefined) this.total -= this.weigh(old)
    else this.order.push(key)
    this.map.set(key, value)
    this.total += this.weigh(value)
    while (this.total > this.capacity && this.map.size > 1) {
      const oldest = this.order[this.head++]!
      const value = this.map.get(oldest)
      if (value === undefined) continue // deleted since
      this.total -= this.weigh(value)
      this.map.delete(oldest)
    }
    // drop the consumed front now and then: amortised O(1) per set
    if (this.head > 1024 && this.head * 2 > this.order.length) {
      this.order = this.order.slice(this.head)
      this.head = 0
    }
  }

  /**
   * Forgets `key`. Its place in the order stays: set again, it leaves at its first place's turn, early (a
   * cache's rare case: the call memo forgets a failed call).
   */
  delete(key: K): void {
    const old = this.map.get(key)
    if (old === undefined) return
    this.total -= this.weigh(old)
    this.map.delete(key)
  }
}
