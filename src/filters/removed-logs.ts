/**
 * A reorg seen by a log filter (geth's filter system on a chain reorg): the logs it already reported from
 * blocks that stopped being canonical are queued for its next eth_getFilterChanges with `removed: true`,
 * newest first, and its cursor moves back to the fork so the new branch's logs are reported too.
 */
import type { BlockRecord } from '../domain/types.js'
import { formatLog } from '../format/log.js'
import { MAX_LOGS_PER_RESPONSE } from '../limits.js'
import { matchesLog } from './criteria.js'
import type { LogFilter } from './registry.js'

export function rewindLogFilters(filters: readonly LogFilter[], removedBlocks: readonly BlockRecord[]): void {
  const fork = removedBlocks[0]?.number
  if (fork === undefined) return
  for (const filter of filters) {
    if (filter.blockHash || filter.cursor <= fork) continue
    const reported = removedBlocks.filter((b) => b.number < filter.cursor && within(filter, b.number))
    const removed = reported
      .flatMap((b) => b.logs)
      .filter((log) => matchesLog(filter.criteria, log))
      .reverse()
      .map((log) => formatLog(log, true))
    filter.removed = [...(filter.removed ?? []), ...removed].slice(-MAX_LOGS_PER_RESPONSE)
    filter.cursor = fork
  }
}

function within(filter: LogFilter, n: bigint): boolean {
  return (
    (typeof filter.fromBlock !== 'bigint' || filter.fromBlock <= n) &&
    (typeof filter.toBlock !== 'bigint' || filter.toBlock >= n)
  )
}
