/**
 * The polling filters of one service (eth_newFilter, eth_newBlockFilter, eth_newPendingTransactionFilter).
 * Block and pending-transaction filters collect hashes as the chain announces them; log filters keep a
 * cursor (the next block to report) and scan on poll, so an idle log filter costs no memory. A filter not
 * polled for the idle timeout is gone, as in geth.
 */
import { randomBytes } from 'node:crypto'
import { FilterNotFoundError, TooManyFiltersError } from '../errors.js'
import { FILTER_IDLE_TIMEOUT_MS, MAX_FILTERS_PER_CLIENT, MAX_QUEUED_HASHES } from '../limits.js'
import type { Hex } from '../format/hex.js'
import type { RpcLog } from '../format/log.js'
import type { LogQuery } from './query.js'

/** A block bound as the filter was given it: resolved again at every poll, so `latest` follows the head. */
export type BlockBound = bigint | 'latest' | 'pending' | 'earliest' | 'safe' | 'finalized'

export type LogFilter = LogQuery & {
  kind: 'logs'
  /** the first block number the next eth_getFilterChanges reports */
  cursor: bigint
  /** logs it reported whose blocks a reorg took away, as the next poll sends them (`removed: true`) */
  removed?: RpcLog[]
}
export type HashFilter = { kind: 'blocks' | 'pendingTransactions'; hashes: Hex[] }
export type Filter = (LogFilter | HashFilter) & { readonly id: Hex; readonly owner: string; lastPolled: number }

export type RegistryOptions = { idleTimeoutMs?: number; maxFilters?: number; now?: () => number }

export class FilterRegistry {
  readonly #filters = new Map<Hex, Filter>()
  readonly #idleTimeoutMs: number
  readonly #maxFilters: number
  readonly #now: () => number

  constructor(options: RegistryOptions = {}) {
    this.#idleTimeoutMs = options.idleTimeoutMs ?? FILTER_IDLE_TIMEOUT_MS
    this.#maxFilters = options.maxFilters ?? MAX_FILTERS_PER_CLIENT
    this.#now = options.now ?? Date.now
  }

  /** Installs a filter for `owner` (the client IP: the filter budget is per client). */
  install(filter: LogFilter | HashFilter, owner = ''): Hex {
    this.sweep()
    let owned = 0
    for (const f of this.#filters.values()) if (f.owner === owner) owned++
    if (owned >= this.#maxFilters) {
      throw new TooManyFiltersError(this.#maxFilters)
    }
    const id = `0x${randomBytes(16).toString('hex')}` as Hex
    this.#filters.set(id, Object.assign(filter, { id, owner, lastPolled: this.#now() }))
    return id
  }

  /** The live filter with this id, marked as polled; -32000 `filter not found` otherwise (geth's text). */
  poll(id: string): Filter {
    const filter = this.#filters.get(id.toLowerCase() as Hex)
    if (!filter || this.#expired(filter)) {
      if (filter) this.#filters.delete(filter.id)
      throw new FilterNotFoundError()
    }
    filter.lastPolled = this.#now()
    return filter
  }

  uninstall(id: string): boolean {
    const filter = this.#filters.get(id.toLowerCase() as Hex)
    if (!filter) return false
    this.#filters.delete(filter.id)
    return !this.#expired(filter)
  }

  /** Takes a block or pending-tx filter's collected hashes, leaving it empty. */
  drain(filter: Filter & HashFilter): Hex[] {
    const hashes = filter.hashes
    filter.hashes = []
    return hashes
  }

  onNewBlock(hash: Hex): void {
    this.#push('blocks', hash)
  }

  onPendingTransaction(hash: Hex): void {
    this.#push('pendingTransactions', hash)
  }

  /** The live log filters, for a reorg to rewind (removed-logs.ts). */
  logFilters(): LogFilter[] {
    return [...this.#filters.values()].filter((f): f is Filter & LogFilter => f.kind === 'logs' && !this.#expired(f))
  }

  get size(): number {
    return this.#filters.size
  }

  /** Drops every filter idle past the timeout. */
  sweep(): void {
    for (const filter of this.#filters.values()) if (this.#expired(filter)) this.#filters.delete(filter.id)
  }

  #push(kind: HashFilter['kind'], hash: Hex): void {
    for (const filter of this.#filters.values()) {
      if (filter.kind !== kind) continue
      if (this.#expired(filter)) {
        this.#filters.delete(filter.id)
        continue
      }
      filter.hashes.push(hash)
      if (filter.hashes.length > MAX_QUEUED_HASHES) filter.hashes.shift()
    }
  }

  #expired(filter: Filter): boolean {
    return this.#now() - filter.lastPolled > this.#idleTimeoutMs
  }
}
