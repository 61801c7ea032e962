/** One sender's queue in the pool, and the rules that read it: gap filling, replacement, the next nonce. */
import { POOL_PRICE_BUMP_PERCENT } from '../../limits.js'
import type { PoolEntry } from './entry.js'

/** One sender's transactions by nonce, and its nonce in the head state as last seen. */
export interface SenderTxs {
  readonly sender: Uint8Array
  stateNonce: bigint
  readonly byNonce: Map<bigint, PoolEntry>
}

/**
 * True when the nonce is the one the sender's queued transactions wait for. Such a transaction is admitted
 * past the limits: refusing it would strand the sender's queued ones (the pool full of them, the gap never
 * filled). The overshoot is bounded by the number of queued transactions, so the pool stays under twice its size.
 */
export function fillsGap(queue: SenderTxs, nonce: bigint): boolean {
  let next = queue.stateNonce
  while (queue.byNonce.has(next)) next++
  if (nonce !== next) return false
  for (const queued of queue.byNonce.keys()) if (queued > nonce) return true
  return false
}

/** geth's rule: both caps strictly higher and at least POOL_PRICE_BUMP_PERCENT above the old ones. */
export function outbids(next: PoolEntry, old: PoolEntry): boolean {
  const bump = 100n + POOL_PRICE_BUMP_PERCENT
  return (
    next.feeCap > old.feeCap &&
    next.tipCap > old.tipCap &&
    next.feeCap >= (old.feeCap * bump) / 100n &&
    next.tipCap >= (old.tipCap * bump) / 100n
  )
}

/** The first nonce from `from` on that the sender's queue does not hold: its next executable one. */
export function nextNonce(queue: SenderTxs | undefined, from: bigint): bigint {
  let nonce = from
  while (queue?.byNonce.has(nonce)) nonce++
  return nonce
}
