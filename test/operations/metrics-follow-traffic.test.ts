/**
 * GET /metrics.json as an operator reads it: every figure follows what clients and the chain just did. The chain
 * only moves when the test mines, so each figure is compared exactly with what a client sees.
 */
import { once } from 'node:events'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import WebSocket from 'ws'
import { createWsClient } from '../../generated/client.js'
import type { collectMetrics } from '../../src/metrics/routes.js'
import { RATE_LIMIT_PER_SECOND } from '../../src/limits.js'
import type { RunningService } from '../../src/service.js'
import { signTransferToBob } from '../support/dev-keys.js'
import { startFrozenService } from '../support/harness.js'
import { rpc } from '../support/rpc.js'

type Metrics = ReturnType<typeof collectMetrics>

describe('GET /metrics.json', () => {
  let service: RunningService
  const metrics = async (): Promise<Metrics> =>
    (await (await fetch(new URL('/metrics.json', service.url))).json()) as Metrics
  const blockNumber = async () => Number((await rpc(service.url, 'eth_blockNumber')).result)

  beforeAll(async () => {
    // a Redis nobody listens on: the limiter serves fail-open and the metric shows it; an hour between blocks
    service = await startFrozenService({ redisUrl: 'redis://127.0.0.1:1', rateLimit: RATE_LIMIT_PER_SECOND })
  })
  afterAll(() => service?.close())

  test('reports the same head height as eth_blockNumber, one higher after a block is mined', async () => {
    const before = await metrics()
    expect(before.head).toBe(await blockNumber())
    await service.chain.mine()
    const after = await metrics()
    expect(after.head).toBe(before.head + 1)
    expect(after.head).toBe(await blockNumber())
    // building the block published at least one flashblock
    expect(after.sequencer!.flashblocks).toBeGreaterThan(before.sequencer!.flashblocks)
  })

  test('counts a sent transaction in the pool until a block takes it', async () => {
    expect((await metrics()).pool).toBe(0)
    const raw = await signTransferToBob()
    expect((await rpc(service.url, 'eth_sendRawTransaction', [raw])).error).toBeUndefined()
    expect((await metrics()).pool).toBe(1)
    await service.chain.mine()
    expect((await metrics()).pool).toBe(0)
  })

  test('counts live subscriptions and raw feed clients, and forgets them when they go', async () => {
    expect((await metrics()).subscriptions).toBe(0)
    const client = await createWsClient(service.wsUrl)
    const heads = await client.subscribe('newHeads')
    await client.subscribe('logs', {})
    expect((await metrics()).subscriptions).toBe(2)
    await heads.unsubscribe()
    expect((await metrics()).subscriptions).toBe(1)
    await client.close()
    await expect.poll(async () => (await metrics()).subscriptions).toBe(0)

    expect((await metrics()).feedClients).toBe(0)
    const feed = new WebSocket(`${service.wsUrl}ws/flashblocks`)
    await once(feed, 'open')
    await expect.poll(async () => (await metrics()).feedClients).toBe(1)
    feed.close()
    await expect.poll(async () => (await metrics()).feedClients).toBe(0)
  })

  test('counts each request served while Redis is unreachable, and reports Redis down', async () => {
    const before = (await metrics()).rateLimit!
    for (let i = 0; i < 3; i++) expect((await rpc(service.url, 'eth_chainId')).result).toBe('0xc4')
    const after = (await metrics()).rateLimit!
    expect(after.redisUp).toBe(false)
    expect(after.failOpenRequests - before.failOpenRequests).toBe(3)
    expect(after.redisErrors).toBeGreaterThanOrEqual(before.redisErrors + 3)
  })
})
