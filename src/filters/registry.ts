/**
 * The polling filters of one process, in memory: the store without `--redis-url` (see store.ts for the
 * contract). Hashes a pending-transaction filter has not been polled for are held up to MAX_QUEUED_HASHES,
 * oldest dropped first.
 */
import { randomBytes } from 'node:crypto'
import { FilterNotFoundError, TooManyFiltersError } from '../errors.js'
import { FILTER_IDLE_TIMEOUT_MS, MAX_FILTERS_PER_CLIENT, MAX_LOGS_PER_RESPONSE, MAX_QUEUED_HASHES } from '../limits.js'
import type { BlockRecord } from '../domain/types.js'
import type { Hex } from '../format/hex.js'
import type { RpcLog } from '../format/log.js'
import { parseLogFilter } from './query.js'
import { forkOf, removedLogs } from './removed-logs.js'
import type { FilterChanges, FilterSpec, FilterStore } from './store.js'

type Entry = { spec: FilterSpec; owner: string; lastPolled: number; cursor: bigint; hashes: Hex[]; removed: RpcLog[] }

export type RegistryOptions = { idleTimeoutMs?: number; maxFilters?: number; now?: () => number }

/** A fresh filter id: 16 random bytes. */
export function newFilterId(): Hex {
  return `0x${randomBytes(16).toString('hex')}` as Hex
}

export class FilterRegistry implements FilterStore {
  readonly #filters = new Map<Hex, Entry>()
  readonly #idleTimeoutMs: number
  readonly #maxFilters: number
  readonly #now: () => number

  constructor(options: RegistryOptions = {}) {
    this.#idleTimeoutMs = options.idleTimeoutMs ?? FILTER_IDLE_TIMEOUT_MS
    this.#maxFilters = options.maxFilters ?? MAX_FILTERS_PER_CLIENT
    this.#now = options.now ?? Date.now
  }

  async install(spec: FilterSpec, cursor: bigint, owner: string): Promise<Hex> {
    this.sweep()
    let owned = 0
    for (const f of this.#filters.values()) if (f.owner === owner) owned++
    if (owned >= this.#maxFilters) throw new TooManyFiltersError(this.#maxFilters)
    const id = newFilterId()
    this.#filters.set(id, { spec, owner, lastPolled: this.#now(), cursor, hashes: [], removed: [] })
    return id
  }

  async changes(id: string, next: bigint): Promise<FilterChanges> {
    const entry = this.#poll(id)
    const from = entry.cursor
    if (next > entry.cursor) entry.cursor = next
    const { hashes, removed } = entry
    entry.hashes = []
    entry.removed = []
    return { spec: entry.spec, from, hashes, removed }
  }

  async definition(id: string): Promise<FilterSpec> {
    return this.#poll(id).spec
  }

  async uninstall(id: string): Promise<boolean> {
    const key = id.toLowerCase() as Hex
    const entry = this.#filters.get(key)
    if (!entry) return false
    this.#filters.delete(key)
    return !this.#expired(entry)
  }

  onPendingTransaction(hash: Hex): void {
    for (const [id, entry] of this.#filters) {
      if (entry.spec.kind !== 'pendingTransactions') continue
      if (this.#expired(entry)) {
        this.#filters.delete(id)
        continue
      }
      entry.hashes.push(hash)
      if (entry.hashes.length > MAX_QUEUED_HASHES) entry.hashes.shift()
    }
  }

  onRemovedBlocks(blocks: readonly BlockRecord[]): void {
    const fork = forkOf(blocks)
    for (const entry of this.#filters.values()) {
      if (entry.spec.kind !== 'logs' || this.#expired(entry) || fork === undefined) continue
      const logs = removedLogs(parseLogFilter(entry.spec.filter), entry.cursor, blocks)
      if (!logs) continue
      entry.removed = [...entry.removed, ...logs].slice(-MAX_LOGS_PER_RESPONSE)
      entry.cursor = fork
    }
  }

  async close(): Promise<void> {
    this.#filters.clear()
  }

  /** Drops every filter idle past the timeout. */
  sweep(): void {
    for (const [id, entry] of this.#filters) if (this.#expired(entry)) this.#filters.delete(id)
  }

  /** The live filter with this id, marked as polled; -32000 `filter not found` otherwise (geth's text). */
  #poll(id: string): Entry {
    const key = id.toLowerCase() as Hex
    const entry = this.#filters.get(key)
    if (!entry || this.#expired(entry)) {
      if (entry) this.#filters.delete(key)
      throw new FilterNotFoundError()
    }
    entry.lastPolled = this.#now()
    return entry
  }

  #expired(entry: Entry): boolean {
    return this.#now() - entry.lastPolled > this.#idleTimeoutMs
  }
}
