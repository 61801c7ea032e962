/**
 * The polling filters' store (eth_newFilter, eth_newBlockFilter, eth_newPendingTransactionFilter): in the
 * process's memory (registry.ts, the default) or in Redis (redis-store.ts, `--redis-url`) so that every
 * replica behind a load balancer serves the same filters. Handlers see only this interface.
 *
 * Log and block filters keep a cursor, the first block number the next poll reports; a poll moves it to the
 * poller's head + 1 atomically and answers from the old cursor, so two polls through two replicas report
 * disjoint ranges and every change goes out once. Pending-transaction filters collect hashes. A filter not
 * polled for FILTER_IDLE_TIMEOUT_MS is gone, as in geth.
 */
import type { BlockRecord } from '../domain/types.js'
import type { Hex } from '../format/hex.js'
import type { RpcLog } from '../format/log.js'
import type { WireLogFilter } from './query.js'

/** What a filter was installed with: the log filter as the client sent it (parsed again where it is used). */
export type FilterSpec = { kind: 'logs'; filter: WireLogFilter } | { kind: 'blocks' } | { kind: 'pendingTransactions' }

/**
 * One poll's share of a filter: blocks from `from` up to the poller's head, or the hashes since the last poll,
 * and (log filters) the logs a reorg took back since, newest first (removed-logs.ts).
 */
export type FilterChanges = { spec: FilterSpec; from: bigint; hashes: Hex[]; removed: RpcLog[] }

export interface FilterStore {
  /** Installs a filter for `owner` (the client IP: the filter budget is per client); `cursor` = head + 1. */
  install(spec: FilterSpec, cursor: bigint, owner: string): Promise<Hex>
  /** The filter's changes since its last poll, its cursor moved to `next` if that is further; `filter not found` otherwise. */
  changes(id: string, next: bigint): Promise<FilterChanges>
  /** The filter's definition, marked as polled; `filter not found` otherwise. */
  definition(id: string): Promise<FilterSpec>
  /** True if a live filter was removed. */
  uninstall(id: string): Promise<boolean>
  /** A transaction the pool accepted: pending-transaction filters report it. */
  onPendingTransaction(hash: Hex): void
  /** Canonical blocks a reorg took away, oldest first: log filters queue what they reported from them. */
  onRemovedBlocks(blocks: readonly BlockRecord[]): void
  close(): Promise<void>
}
