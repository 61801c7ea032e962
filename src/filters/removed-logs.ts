/**
 * A reorg seen by a log filter (geth's filter system on a chain reorg): the logs it already reported from
 * blocks that stopped being canonical go out on its next eth_getFilterChanges with `removed: true`, newest
 * first, and its cursor moves back to the fork so the new branch's logs are reported too. Both filter stores
 * (registry.ts, redis-store.ts) apply this the same way.
 */
import type { BlockRecord } from '../domain/types.js'
import { formatLog, type RpcLog } from '../format/log.js'
import { matchesLog } from './criteria.js'
import type { LogQuery } from './query.js'

/** The first block the reorg took away: a filter's cursor moves back to it. */
export function forkOf(removedBlocks: readonly BlockRecord[]): bigint | undefined {
  return removedBlocks[0]?.number
}

/** The logs a filter at `cursor` reported from `removedBlocks`, newest first; undefined if the reorg missed it. */
export function removedLogs(
  query: LogQuery,
  cursor: bigint,
  removedBlocks: readonly BlockRecord[],
): RpcLog[] | undefined {
  const fork = forkOf(removedBlocks)
  if (fork === undefined || query.blockHash || cursor <= fork) return undefined
  return removedBlocks
    .filter((b) => b.number < cursor && within(query, b.number))
    .flatMap((b) => b.logs)
    .filter((log) => matchesLog(query.criteria, log))
    .reverse()
    .map((log) => formatLog(log, true))
}

/** Newest first, as removedLogs orders one reorg's logs (Redis hands a set back unordered). */
export function newestFirst(logs: RpcLog[]): RpcLog[] {
  const key = (log: RpcLog) => (BigInt(log.blockNumber) << 32n) + BigInt(log.logIndex)
  return logs.sort((a, b) => (key(a) < key(b) ? 1 : key(a) > key(b) ? -1 : 0))
}

function within(query: LogQuery, n: bigint): boolean {
  return (
    (typeof query.fromBlock !== 'bigint' || query.fromBlock <= n) &&
    (typeof query.toBlock !== 'bigint' || query.toBlock >= n)
  )
}
