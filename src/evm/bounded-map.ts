/** A Map that drops its oldest entries once their total weight passes `capacity`: the read path's caches. */
export class BoundedMap<V> {
  private readonly map = new Map<string, V>()
  private total = 0

  constructor(
    private readonly capacity: number,
    private readonly weigh: (value: V) => number = () => 1,
  ) {}

  get size(): number {
    return this.map.size
  }

  get(key: string): V | undefined {
    return this.map.get(key)
  }

  set(key: string, value: V): void {
    const old = this.map.get(key)
    if (old !== undefined) {
      this.total -= this.weigh(old)
      this.map.delete(key)
    }
    this.map.set(key, value)
    this.total += this.weigh(value)
    for (const [k, v] of this.map) {
      if (this.total <= this.capacity || this.map.size === 1) break
      this.map.delete(k)
      this.total -= this.weigh(v)
    }
  }
}
