/**
 * The per-block log index: every log of a block flattened once, with its position, and remembered for
 * the block's lifetime. eth_getLogs probes the header bloom first and only opens the index of a block
 * whose bloom says a match is possible.
 */
import type { LogBody, LogPosition } from '../format/log.js'

/** The parts of a block (canonical or pending) the log index needs. */
export interface LogBlock {
  readonly hash: Uint8Array
  readonly number: bigint
  readonly timestamp: bigint
  readonly logsBloom: Uint8Array
  readonly txHashes: readonly Uint8Array[]
  readonly receiptLogs: readonly (readonly LogBody[])[]
}

export type IndexedLog = { readonly body: LogBody; readonly position: LogPosition }

const cache = new WeakMap<object, readonly IndexedLog[]>()

/**
 * The logs of a block in block order. `key` is the object whose lifetime bounds the cache entry (the block
 * record); a pending block is a new object per flashblock, so a stale pending index is never reused.
 */
export function indexedLogs(key: object, block: LogBlock): readonly IndexedLog[] {
  const hit = cache.get(key)
  if (hit) return hit
  const logs: IndexedLog[] = []
  block.receiptLogs.forEach((receiptLogs, txIndex) => {
    for (const body of receiptLogs) {
      logs.push({
        body,
        position: {
          blockHash: block.hash,
          blockNumber: block.number,
          blockTimestamp: block.timestamp,
          transactionHash: block.txHashes[txIndex]!,
          transactionIndex: txIndex,
          logIndex: logs.length,
        },
      })
    }
  })
  cache.set(key, logs)
  return logs
}
