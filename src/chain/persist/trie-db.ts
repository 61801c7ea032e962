/**
 * The state trie's node store on LevelDB. The trie writes nodes when the sequencer commits a flashblock;
 * they wait here until that flashblock's journal record goes to disk in the same atomic batch (drain),
 * so a node is never on disk without the record that needs it, nor the record without its nodes. Reads
 * see the waiting nodes first, then the nodes kept packed in memory (node-cache.ts: those read or written lately),
 * then LevelDB (synchronous reads: ~6 µs, no promise hop per node).
 */
import { type BatchDBOp, type DB, bytesToHex, hexToBytes } from '@ethereumjs/util'
import { NodeCache } from './node-cache.js'
import type { PrunableNodes } from './prune.js'
import type { Level } from './db.js'
import { nodeKey, range } from './keys.js'

export type LevelOp = { type: 'put'; key: Uint8Array; value: Uint8Array } | { type: 'del'; key: Uint8Array }

export class LevelTrieDB implements DB<string, Uint8Array> {
  /** While a prune pass runs: every node key drained since it began (those must survive it). */
  private tracked?: Set<string>

  constructor(
    private readonly level: Level,
    private readonly waiting: Map<string, Uint8Array | undefined> = new Map(),
    private readonly cache = new NodeCache(),
  ) {}

  /** Whether the node is stored (waiting or on disk); reads LevelDB, never the trie's node cache. */
  has(key: string): boolean {
    return this.waiting.get(key) !== undefined || this.level.getSync(nodeKey(hexToBytes(`0x${key}`))) !== undefined
  }

  /** What a prune pass (prune.ts) sweeps: the nodes on disk, never one drained or waiting since it began. */
  prunable(): PrunableNodes {
    return {
      has: (key) => this.has(key),
      get: (key) =>
        this.waiting.has(key) ? this.waiting.get(key) : this.level.getSync(nodeKey(hexToBytes(`0x${key}`))),
      begin: () => {
        this.tracked = new Set()
        const keys = this.level.keys(range('node')) // a LevelDB snapshot
        return {
          keys: (async function* () {
            for await (const key of keys) yield bytesToHex(key.subarray(1)).slice(2)
          })(),
          close: () => keys.close(),
        }
      },
      sweep: async (keys) => {
        // the filter and the batch call run without a pause between
        const gone = keys.filter((key) => !this.tracked?.has(key) && !this.waiting.has(key))
        if (!gone.length) return
        const hashes = gone.map((key) => hexToBytes(`0x${key}`))
        for (const hash of hashes) this.cache.delete(hash)
        await this.level.batch(hashes.map((hash) => ({ type: 'del', key: nodeKey(hash) })))
      },
      end: () => {
        this.tracked = undefined
      },
    }
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    return this.getSync(key)
  }

  /** The same read without a promise (TrieReader's and the state snapshot's, src/evm/). */
  getSync(key: string): Uint8Array | undefined {
    if (this.waiting.has(key)) return this.waiting.get(key)
    const hash = hexToBytes(`0x${key}`)
    const kept = this.cache.get(hash)
    if (kept !== undefined) return kept
    const stored = this.level.getSync(nodeKey(hash))
    if (stored !== undefined) this.cache.set(hash, stored)
    return stored
  }

  async put(key: string, value: Uint8Array): Promise<void> {
    this.waiting.set(key, value)
  }

  async del(key: string): Promise<void> {
    this.waiting.set(key, undefined)
  }

  async batch(ops: BatchDBOp<string, Uint8Array>[]): Promise<void> {
    for (const op of ops) this.waiting.set(op.key, op.type === 'put' ? op.value : undefined)
  }

  /** Shares the waiting nodes: a state view must read what the sequencer committed a moment ago. */
  shallowCopy(): DB<string, Uint8Array> {
    return new LevelTrieDB(this.level, this.waiting, this.cache)
  }

  async open(): Promise<void> {}

  /**
   * The waiting nodes as LevelDB operations, for the caller's next batch. They stay readable here until
   * `written` is called after that batch is on disk: LevelDB shows nothing of a batch before it completes,
   * and a read in between (the pool checking a sender against the head) must not find the state missing.
   */
  drain(): { ops: LevelOp[]; written: () => void } {
    const ops: LevelOp[] = []
    const taken = [...this.waiting]
    const hashes: Uint8Array[] = []
    for (const [key, value] of taken) {
      this.tracked?.add(key)
      const hash = hexToBytes(`0x${key}`)
      hashes.push(hash)
      const k = nodeKey(hash)
      ops.push(value === undefined ? { type: 'del', key: k } : { type: 'put', key: k, value })
    }
    const written = () => {
      // the nodes just written are the ones the next blocks read first (the trie's top levels)
      taken.forEach(([key, value], i) => {
        if (value === undefined) this.cache.delete(hashes[i]!)
        else this.cache.set(hashes[i]!, value)
        if (this.waiting.get(key) === value) this.waiting.delete(key)
      })
    }
    return { ops, written }
  }
}
