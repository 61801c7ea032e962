/**
 * The filter store of a service: in memory, or in Redis with `--redis-url` (shared by every replica). Every
 * transaction the pool accepts reaches the pending-tx filters; log and block filters read the chain when
 * polled. One store per service, built where the service is assembled; the handlers of both endpoints share it.
 */
import type { BlockRecord, TxRecord } from '../domain/types.js'
import { data } from '../format/hex.js'
import { RedisFilterStore } from './redis-store.js'
import { FilterRegistry } from './registry.js'
import type { FilterStore } from './store.js'

/** The events a store follows (the embedded chain's and the follower's TypedEmitter have them). */
export interface FilterEventSource {
  on(event: 'pendingTransaction', listener: (tx: TxRecord) => void): () => void
  on(event: 'removedBlocks', listener: (blocks: readonly BlockRecord[]) => void): () => void
}

export function connectFilters(
  events: FilterEventSource,
  options: { redisUrl?: string; warn?: (message: string) => void } = {},
): FilterStore {
  const store = options.redisUrl
    ? new RedisFilterStore({ url: options.redisUrl, warn: options.warn })
    : new FilterRegistry()
  events.on('pendingTransaction', (tx) => store.onPendingTransaction(data(tx.hash)))
  events.on('removedBlocks', (blocks) => store.onRemovedBlocks(blocks))
  return store
}
