import { describe, expect, test } from 'vitest'
import { Bloom } from '@ethereumjs/vm'
import type { BlockRecord, LogRecord } from '../domain/types.js'
import { LimitExceededError } from '../errors.js'
import { MAX_LOG_BLOCK_RANGE, MAX_LOGS_PER_RESPONSE } from '../limits.js'
import { checkBlockRange, collectLogs } from './collect.js'
import { createCriteria } from './criteria.js'

const emitter = new Uint8Array(20).fill(0xaa)
const topic = new Uint8Array(32).fill(0x01)

/** A block record holding `count` logs from `emitter` (only the fields the scan reads). */
function blockWithLogs(number: bigint, count: number): BlockRecord {
  const bloom = new Bloom()
  bloom.add(emitter)
  bloom.add(topic)
  const logs: LogRecord[] = Array.from({ length: count }, (_, i) => ({
    address: emitter,
    topics: [topic],
    data: new Uint8Array(),
    blockNumber: number,
    blockHash: new Uint8Array(32),
    blockTimestamp: 0n,
    transactionHash: new Uint8Array(32),
    transactionIndex: 0,
    logIndex: i,
  }))
  return {
    number,
    logs,
    header: { logsBloom: count ? bloom.bitvector : new Uint8Array(256) },
  } as unknown as BlockRecord
}

describe('the log scan', () => {
  test('returns matching logs of every block in chain order', () => {
    const blocks = [blockWithLogs(1n, 2), blockWithLogs(2n, 0), blockWithLogs(3n, 1)]
    const logs = collectLogs(blocks, createCriteria(null, null))
    expect(logs.map((l) => [l.blockNumber, l.logIndex])).toEqual([
      [1n, 0],
      [1n, 1],
      [3n, 0],
    ])
  })

  test('skips blocks whose bloom rules the filter out', () => {
    const other = `0x${'bb'.repeat(20)}` as const
    expect(collectLogs([blockWithLogs(1n, 3)], createCriteria(other, null))).toEqual([])
  })

  test('answers exactly the maximum number of logs, and refuses one more with -32005 naming the limit', () => {
    const atLimit = [blockWithLogs(1n, MAX_LOGS_PER_RESPONSE)]
    expect(collectLogs(atLimit, createCriteria(null, null))).toHaveLength(MAX_LOGS_PER_RESPONSE)
    const over = [blockWithLogs(1n, MAX_LOGS_PER_RESPONSE), blockWithLogs(2n, 1)]
    const attempt = () => collectLogs(over, createCriteria(null, null))
    expect(attempt).toThrow(LimitExceededError)
    expect(attempt).toThrow(`more than ${MAX_LOGS_PER_RESPONSE} results`)
  })

  test('accepts a range of exactly the maximum width and refuses a wider one', () => {
    expect(() => checkBlockRange(1n, BigInt(MAX_LOG_BLOCK_RANGE))).not.toThrow()
    expect(() => checkBlockRange(0n, BigInt(MAX_LOG_BLOCK_RANGE))).toThrow(`max block range ${MAX_LOG_BLOCK_RANGE}`)
  })
})
