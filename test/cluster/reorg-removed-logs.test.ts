/**
 * A reorg seen by the polling filters of both stores: the in-memory registry and Redis shared by two
 * replicas that each see the same reorg. The logs a filter reported from the removed blocks come back once,
 * `removed: true`, newest first, and its cursor moves back to the fork so the new branch is reported.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { BlockRecord, LogRecord } from '../../src/domain/types.js'
import { FilterNotFoundError } from '../../src/errors.js'
import { RedisFilterStore } from '../../src/filters/redis-store.js'
import { FilterRegistry } from '../../src/filters/registry.js'
import type { FilterStore } from '../../src/filters/store.js'
import { until } from '../support/wait-for.js'
import { TestRedis } from '../support/redis-server.js'
import { HAVE_REDIS_SERVER } from '../support/system-tools.js'

const TOKEN = new Uint8Array(20).fill(0xaa)
const OTHER = new Uint8Array(20).fill(0xbb)

function log(blockNumber: bigint, logIndex: number, address: Uint8Array): LogRecord {
  return {
    address,
    topics: [],
    data: new Uint8Array([logIndex]),
    blockNumber,
    blockHash: new Uint8Array(32).fill(Number(blockNumber)),
    blockTimestamp: blockNumber * 2n,
    transactionHash: new Uint8Array(32).fill(0x10 + logIndex),
    transactionIndex: logIndex,
    logIndex,
  }
}

/** Removed blocks 4 and 5, oldest first, as the backends emit them: two token logs and one of another address. */
const removedBlocks = [
  { number: 4n, hash: new Uint8Array(32).fill(4), logs: [log(4n, 0, TOKEN), log(4n, 1, OTHER)] },
  { number: 5n, hash: new Uint8Array(32).fill(5), logs: [log(5n, 0, TOKEN)] },
] as unknown as BlockRecord[]

async function reportedUpTo5(store: FilterStore): Promise<string> {
  const id = await store.install({ kind: 'logs', filter: { address: `0x${'aa'.repeat(20)}` } }, 3n, 'client')
  await store.changes(id, 6n) // the client has now seen blocks 3..5
  return id
}

async function expectRemovedOnce(stores: FilterStore[], id: string): Promise<void> {
  const first = await stores[0]!.changes(id, 6n)
  expect(first.from).toBe(4n)
  expect(first.removed.map((l) => [l.blockNumber, l.logIndex, l.removed])).toEqual([
    ['0x5', '0x0', true],
    ['0x4', '0x0', true],
  ])
  const again = await stores[stores.length - 1]!.changes(id, 6n)
  expect(again.removed).toEqual([])
  expect(again.from).toBe(6n)
}

test('the in-memory registry hands a reorg’s removed logs to a log filter once, newest first', async () => {
  const registry = new FilterRegistry()
  const id = await reportedUpTo5(registry)
  registry.onRemovedBlocks(removedBlocks)
  await expectRemovedOnce([registry], id)
})

describe.skipIf(!HAVE_REDIS_SERVER)('log filters in Redis', () => {
  let redis: TestRedis
  beforeAll(async () => {
    redis = await TestRedis.start()
  })
  afterAll(async () => redis?.kill())

  test('two replicas that both see a reorg hand its removed logs to a shared filter once', async () => {
    const replicas = [new RedisFilterStore({ url: redis.url }), new RedisFilterStore({ url: redis.url })]
    try {
      // connected once an unknown filter is `filter not found` rather than `shared filter store unavailable`
      const connected = (r: RedisFilterStore) => r.definition('0x00').catch((e) => e instanceof FilterNotFoundError)
      await until(async () => (await Promise.all(replicas.map(connected))).every(Boolean), 'both replicas connected')
      const id = await reportedUpTo5(replicas[0]!)
      await Promise.all(replicas.map((replica) => replica.onRemovedBlocks(removedBlocks)))
      await expectRemovedOnce(replicas, id)
      // a replica that sees the reorg only after the client polled adds nothing again
      await replicas[1]!.onRemovedBlocks(removedBlocks)
      const late = await replicas[1]!.changes(id, 6n)
      expect(late.removed).toEqual([])
      expect(late.from).toBe(6n)
    } finally {
      await Promise.all(replicas.map((r) => r.close()))
    }
  })
})
