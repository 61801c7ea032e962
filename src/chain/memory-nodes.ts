/**
 * The in-memory chain's trie node store: the map under its MapDB, keyed by unprefixed hex hash. Every write
 * goes through set() (the MapDB's copies share this map), so the pruner (memory-pruner.ts) hears of each.
 *
 * Nodes sit in slabs (node-slabs.ts), found by a number (hashId: the hash's first 31 bits) instead of a
 * 64-character string: no heap object per node, only an entry of two integers in a typed-array table (int-table.ts). Two hashes may share
 * an id: the record holds its hash, and a node whose id another has taken is found by its key. Code (a longer
 * key) is kept as written.
 */
import { hashId, hexKey, flat } from '../domain/map-keys.js'
import { IntTable } from './int-table.js'
import { NodeSlabs, idOf } from './node-slabs.js'

export class MemoryNodes extends Map<string, Uint8Array> {
  /** Where the keys written are noted (every write, stored before or not), while a pruner listens. */
  written?: Set<string>
  private readonly slabs = new NodeSlabs((hash, from, to) => this.moved(hash, from, to))
  /** A node's place by its hash's id. */
  private readonly ids = new IntTable()
  /** A node's place by its key, where another node has its id. */
  private readonly shared = new Map<string, number>()
  /** Code, by its key. */
  private readonly others = new Map<string, Uint8Array>()

  /** Where the node named `key` is (for refs and view), -1 if it is not stored (or is code). */
  place(key: string): number {
    if (key.length !== 64) return -1
    const place = this.ids.get(idOf(key))
    if (place !== undefined && this.slabs.named(place, key)) return place
    return this.shared.size === 0 ? -1 : (this.shared.get(key) ?? -1)
  }

  /** A stored node's bytes (a view of its slab: never written to). */
  view(place: number): Uint8Array {
    return this.slabs.view(place)
  }

  /** How many parents and roots hold the node (the pruner's count; 0: none counted). */
  refs(place: number): number {
    return this.slabs.refs(place)
  }

  setRefs(place: number, refs: number): void {
    this.slabs.setRefs(place, refs)
  }

  override get(key: string): Uint8Array | undefined {
    if (key.length !== 64) return this.others.get(key)
    const place = this.place(key)
    return place < 0 ? undefined : this.slabs.view(place)
  }

  override has(key: string): boolean {
    return key.length === 64 ? this.place(key) >= 0 : this.others.has(key)
  }

  override set(key: string, value: Uint8Array): this {
    const flatKey = flat(key)
    this.written?.add(flatKey)
    // keys are hashes of their bytes: a stored key keeps its bytes
    if (key.length !== 64) {
      if (!this.others.has(flatKey)) this.others.set(flatKey, value)
    } else if (this.place(flatKey) < 0) {
      const id = idOf(flatKey)
      const place = this.slabs.add(flatKey, value)
      if (this.ids.has(id)) this.shared.set(flatKey, place)
      else this.ids.set(id, place)
    }
    return this
  }

  override delete(key: string): boolean {
    if (key.length !== 64) return this.others.delete(key)
    const id = idOf(key)
    const place = this.ids.get(id)
    if (place !== undefined && this.slabs.named(place, key)) {
      this.ids.delete(id)
      this.slabs.remove(place)
      return true
    }
    const other = this.shared.get(key)
    if (other === undefined) return false
    this.shared.delete(key)
    this.slabs.remove(other)
    return true
  }

  override get size(): number {
    return this.ids.size + this.shared.size + this.others.size
  }

  override clear(): void {
    for (const key of [...this.keys()]) this.delete(key)
  }

  override *keys(): MapIterator<string> {
    for (const place of this.slabs.places()) yield hexKey(this.slabs.hash(place))
    yield* this.others.keys()
  }

  override *values(): MapIterator<Uint8Array> {
    for (const [, value] of this.entries()) yield value
  }

  override *entries(): MapIterator<[string, Uint8Array]> {
    for (const place of this.slabs.places()) yield [hexKey(this.slabs.hash(place)), this.slabs.view(place)]
    yield* this.others.entries()
  }

  override [Symbol.iterator](): MapIterator<[string, Uint8Array]> {
    return this.entries()
  }

  override forEach(each: (value: Uint8Array, key: string, map: Map<string, Uint8Array>) => void): void {
    for (const [key, value] of this.entries()) each(value, key, this)
  }

  /** A node was copied to another slab (node-slabs.ts's compaction). */
  private moved(hash: Uint8Array, from: number, to: number): void {
    const id = hashId(hash)
    if (this.ids.get(id) === from) this.ids.set(id, to)
    else this.shared.set(hexKey(hash), to)
  }
}
