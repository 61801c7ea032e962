/**
 * eth_sendRawTransactionSync's wait, for any backend that emits the chain events: resolves with the
 * transaction's location as soon as `find` sees it after a flashblock, a block or (on a follower) a feed
 * frame's receipts, undefined on timeout or when the pool drops it. It subscribes before it returns, so
 * nothing published right after the send is missed.
 */
import { keyOf } from '../domain/block-record.js'
import type { TxLocation } from '../domain/types.js'
import type { ChainEvents, TypedEmitter } from '../evm/events.js'

export function waitForLocation(
  events: TypedEmitter<ChainEvents>,
  hash: Uint8Array,
  find: () => TxLocation | undefined,
  timeoutMs: number,
): Promise<TxLocation | undefined> {
  const found = find()
  if (found) return Promise.resolve(found)
  const key = keyOf(hash)
  return new Promise((resolve) => {
    const offs: (() => void)[] = []
    const timer = setTimeout(() => done(undefined), timeoutMs)
    const done = (location: TxLocation | undefined) => {
      clearTimeout(timer)
      for (const off of offs) off()
      resolve(location)
    }
    const check = () => {
      const location = find()
      if (location) done(location)
    }
    offs.push(events.on('flashblock', check), events.on('block', check), events.on('earlyReceipts', check))
    offs.push(events.on('droppedTransaction', (tx) => keyOf(tx.hash) === key && done(undefined)))
  })
}
