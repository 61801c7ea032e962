/**
 * The `{address, topics}` argument of the logs and pendingLogs kinds: address one or many, topics by position
 * with null for "any" and arrays for "one of". Values are checked here (geth's wording); matching is the
 * filters module's, shared with eth_getLogs. fromBlock/toBlock are ignored: a subscription sees new logs only.
 */
import { createCriteria, type LogCriteria } from '../filters/criteria.js'
import { MAX_TOPICS } from '../limits.js'
import { invalid, isPlainObject, readAddress, readHash, typeName } from './params.js'
import type { Hex } from '../format/hex.js'

/** eth_getLogs' filter is parsed by parseLogFilter (src/filters/query.ts); this reads a subscription's criteria only. */
export function readLogCriteria(value: unknown, name: string): LogCriteria {
  if (value === undefined || value === null) return createCriteria(null, null)
  if (!isPlainObject(value)) throw invalid(name, `expected a filter object, got ${typeName(value)}`)
  return createCriteria(readAddresses(value.address, name), readTopics(value.topics, name))
}

function readAddresses(value: unknown, name: string): Hex[] {
  if (value === undefined || value === null) return []
  if (Array.isArray(value)) return value.map((item) => readAddress(item, name))
  return [readAddress(value, name)]
}

function readTopics(value: unknown, name: string): (Hex | null | (Hex | null)[])[] {
  if (value === undefined || value === null) return []
  if (!Array.isArray(value)) throw invalid(name, `expected topics to be an array, got ${typeName(value)}`)
  if (value.length > MAX_TOPICS) throw invalid(name, 'exceed max topics')
  return value.map((position) => {
    if (position === null) return null
    if (Array.isArray(position)) return position.map((topic) => (topic === null ? null : readHash(topic, name)))
    return readHash(position, name)
  })
}
