/**
 * The filter registry of a chain, created on first use and fed by the chain's events: every sealed block's
 * hash reaches the block filters, every transaction the pool accepts reaches the pending-tx filters.
 * One registry per chain (so per service); the handlers of both endpoints share it.
 */
import type { Chain } from '../chain/chain.js'
import { data } from '../format/hex.js'
import { FilterRegistry } from './registry.js'

const registries = new WeakMap<Chain, FilterRegistry>()

export function filtersOf(chain: Chain): FilterRegistry {
  let registry = registries.get(chain)
  if (!registry) {
    const created = new FilterRegistry()
    chain.on('block', (block) => created.onNewBlock(data(block.hash)))
    chain.on('pendingTransaction', (tx) => created.onPendingTransaction(data(tx.hash)))
    registries.set(chain, created)
    registry = created
  }
  return registry
}
