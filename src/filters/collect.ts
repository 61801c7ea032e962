/**
 * The log scan behind eth_getLogs, eth_getFilterLogs and log filters' eth_getFilterChanges: a block whose
 * header bloom rules the filter out is skipped without opening it; the others yield their logs (each block
 * record keeps its logs flattened with positions, so nothing is re-derived).
 */
import { LogRangeTooWideError, TooManyLogsError } from '../errors.js'
import { MAX_LOG_BLOCK_RANGE, MAX_LOGS_PER_RESPONSE } from '../limits.js'
import type { BlockRecord, LogRecord } from '../domain/types.js'
import { bloomMayMatch, matchesLog, type LogCriteria } from './criteria.js'

/** Throws -32005 when from..to spans more blocks than one query may. */
export function checkBlockRange(from: bigint, to: bigint): void {
  if (to - from + 1n > BigInt(MAX_LOG_BLOCK_RANGE)) {
    throw new LogRangeTooWideError(MAX_LOG_BLOCK_RANGE, from, to)
  }
}

/** Matching logs of the given blocks in chain order; -32005 past the per-response log limit. */
export function collectLogs(blocks: Iterable<BlockRecord>, criteria: LogCriteria): LogRecord[] {
  const out: LogRecord[] = []
  for (const block of blocks) {
    if (block.logs.length === 0 || !bloomMayMatch(criteria, block.header.logsBloom)) continue
    for (const log of block.logs) {
      if (!matchesLog(criteria, log)) continue
      if (out.length === MAX_LOGS_PER_RESPONSE) {
        throw new TooManyLogsError(MAX_LOGS_PER_RESPONSE)
      }
      out.push(log)
    }
  }
  return out
}
