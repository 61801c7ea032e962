/**
 * The filter registry of a service, fed by its backend's events: every sealed block's hash reaches the
 * block filters, every transaction the pool accepts reaches the pending-tx filters. One registry per
 * service, built where the service is assembled; the handlers of both endpoints share it.
 */
import type { BlockRecord, TxRecord } from '../domain/types.js'
import { data } from '../format/hex.js'
import { FilterRegistry } from './registry.js'
import { rewindLogFilters } from './removed-logs.js'

/** The two events a registry follows (the embedded chain's TypedEmitter has them). */
export interface FilterEventSource {
  on(event: 'block', listener: (block: BlockRecord) => void): () => void
  on(event: 'pendingTransaction', listener: (tx: TxRecord) => void): () => void
  on(event: 'removedBlocks', listener: (blocks: readonly BlockRecord[]) => void): () => void
}

export function connectFilters(events: FilterEventSource): FilterRegistry {
  const registry = new FilterRegistry()
  events.on('block', (block) => registry.onNewBlock(data(block.hash)))
  events.on('pendingTransaction', (tx) => registry.onPendingTransaction(data(tx.hash)))
  events.on('removedBlocks', (blocks) => rewindLogFilters(registry.logFilters(), blocks))
  return registry
}
