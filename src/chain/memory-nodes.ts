/**
 * The in-memory chain's trie node store: the map under its MapDB, keyed by unprefixed hex hash. Every write
 * goes through set() (the MapDB's copies share this map), so the pruner (memory-pruner.ts) hears of each.
 */
import { flat } from '../domain/map-keys.js'

export class MemoryNodes extends Map<string, Uint8Array> {
  /** Where the keys written are noted (every write, stored before or not), while a pruner listens. */
  written?: Set<string>

  override set(key: string, value: Uint8Array): this {
    const flatKey = flat(key)
    this.written?.add(flatKey)
    // keys are hashes of their bytes: a stored key keeps its array, which the pruner's counts are keyed by
    if (!super.has(flatKey)) super.set(flatKey, value)
    return this
  }
}
