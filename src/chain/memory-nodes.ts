/**
 * The in-memory chain's trie node store: the map under its MapDB, keyed by unprefixed hex hash. Without a
 * data directory --history prunes here as it does on disk (persist/prune.ts): every write goes through
 * set(), so a pass knows what was written after it began (the MapDB's copies share this map).
 */
import { flat } from '../domain/map-keys.js'
import type { PrunableNodes } from './persist/prune.js'

export class MemoryNodes extends Map<string, Uint8Array> {
  /** While a prune pass runs: every key written since it began (those must survive it). */
  private tracked?: Set<string>

  override set(key: string, value: Uint8Array): this {
    const flatKey = flat(key)
    this.tracked?.add(flatKey)
    return super.set(flatKey, value)
  }

  prunable(): PrunableNodes {
    return {
      has: (key) => this.has(key),
      get: (key) => this.get(key),
      begin: () => {
        this.tracked = new Set()
        const keys = [...this.keys()]
        return {
          keys: (async function* () {
            yield* keys
          })(),
          close: async () => {},
        }
      },
      sweep: async (keys) => {
        for (const key of keys) if (!this.tracked?.has(key)) this.delete(key)
      },
      end: () => {
        this.tracked = undefined
      },
    }
  }
}
