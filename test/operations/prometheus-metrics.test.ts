/**
 * GET /metrics as Prometheus scrapes it: the text parses with a real parser, every family the issue names is
 * there, and the counters move with what clients just did over real sockets. Two services run in this
 * process, each with its own registry: one's traffic never shows in the other's figures.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createWsClient } from '../../generated/client.js'
import { RATE_LIMIT_PER_SECOND } from '../../src/limits.js'
import { startService, type RunningFollower, type RunningService } from '../../src/service.js'
import { signTransferToBob } from '../support/dev-keys.js'
import { startFrozenService } from '../support/harness.js'
import { scrape } from '../support/prometheus.js'
import { post, request, rpc } from '../support/rpc.js'
import { until } from '../support/wait-for.js'

const general = (method: string, outcome = 'ok', transport = 'http') => ({
  endpoint: 'general',
  transport,
  method,
  outcome,
})

describe('GET /metrics on the embedded chain', () => {
  let service: RunningService
  let limited: RunningService

  beforeAll(async () => {
    // the chain moves only when the test mines; a Redis nobody listens on makes the limiter count its errors
    service = await startFrozenService({ redisUrl: 'redis://127.0.0.1:1', rateLimit: RATE_LIMIT_PER_SECOND })
    limited = await startService({ port: 0, quiet: true, rateLimit: 2 })
  })
  afterAll(async () => {
    await service?.close()
    await limited?.close()
  })

  test('serves the Prometheus text format that a parser reads, with every family typed', async () => {
    const metrics = await scrape(service.url)
    expect(metrics.contentType).toMatch(/^text\/plain; version=0\.0\.4/)
    const types = Object.fromEntries([...metrics.families.values()].map((f) => [f.name, f.type]))
    expect(types).toMatchObject({
      preconf_rpc_requests_total: 'COUNTER',
      preconf_rpc_request_duration_seconds: 'HISTOGRAM',
      preconf_rate_limited_total: 'COUNTER',
      preconf_redis_errors_total: 'COUNTER',
      preconf_head_block_number: 'GAUGE',
      preconf_pending_block_number: 'GAUGE',
      preconf_flashblock_age_seconds: 'GAUGE',
      preconf_flashblocks_total: 'COUNTER',
      preconf_pool_transactions: 'GAUGE',
      preconf_subscriptions: 'GAUGE',
      preconf_feed_clients: 'GAUGE',
      preconf_sequencer_tick_jitter_seconds: 'GAUGE',
      preconf_evm_interpreter_calls_total: 'COUNTER',
      preconf_evm_interpreter_fallbacks_total: 'COUNTER',
      preconf_evm_interpreter_simulate_calls_total: 'COUNTER',
      preconf_evm_interpreter_simulate_fallbacks_total: 'COUNTER',
      preconf_evm_interpreter_block_calls_total: 'COUNTER',
      preconf_evm_interpreter_block_fallbacks_total: 'COUNTER',
      preconf_evm_interpreter_reexecution_calls_total: 'COUNTER',
      preconf_evm_interpreter_reexecution_fallbacks_total: 'COUNTER',
      preconf_evm_interpreter_reexecution_awaited_reads_total: 'COUNTER',
      preconf_evm_interpreter_trace_calls_total: 'COUNTER',
      preconf_evm_interpreter_trace_fallbacks_total: 'COUNTER',
    })
  })

  test('counts each call by method and outcome, and times it in the latency histogram', async () => {
    const before = await scrape(service.url)
    for (let i = 0; i < 3; i++) expect((await rpc(service.url, 'eth_chainId')).result).toBe('0xc4')
    expect((await rpc(service.url, 'eth_noSuchMethod')).error?.code).toBe(-32601)
    expect((await rpc(service.url, 'eth_getBalance', ['0xnot-an-address', 'latest'])).error?.code).toBe(-32602)
    const after = await scrape(service.url)
    const moved = (name: string, labels: Record<string, string>) =>
      after.value(name, labels) - before.value(name, labels)
    expect(moved('preconf_rpc_requests_total', general('eth_chainId'))).toBe(3)
    expect(moved('preconf_rpc_requests_total', general('unknown', 'error'))).toBe(1)
    expect(moved('preconf_rpc_requests_total', general('eth_getBalance', 'error'))).toBe(1)
    const timed = { endpoint: 'general', transport: 'http', method: 'eth_chainId' }
    expect(after.count('preconf_rpc_request_duration_seconds', timed)).toBe(
      before.count('preconf_rpc_request_duration_seconds', timed) + 3,
    )
  })

  test('counts WebSocket calls apart from HTTP ones, and live subscriptions until they go', async () => {
    const before = await scrape(service.url)
    expect(before.value('preconf_subscriptions')).toBe(0)
    const client = await createWsClient(service.wsUrl)
    await client.request('eth_blockNumber', [])
    const heads = await client.subscribe('newHeads')
    const during = await scrape(service.url)
    expect(during.value('preconf_subscriptions')).toBe(1)
    expect(during.value('preconf_rpc_requests_total', general('eth_blockNumber', 'ok', 'ws'))).toBe(
      before.value('preconf_rpc_requests_total', general('eth_blockNumber', 'ok', 'ws')) + 1,
    )
    await heads.unsubscribe()
    await client.close()
    await until(async () => (await scrape(service.url)).value('preconf_subscriptions') === 0, 'the subscription to go')
  })

  test('follows the head, the pending block, the pool and the flashblocks as a transaction is mined', async () => {
    const before = await scrape(service.url)
    const head = Number((await rpc(service.url, 'eth_blockNumber')).result)
    expect(before.value('preconf_head_block_number')).toBe(head)
    const raw = await signTransferToBob()
    expect((await rpc(service.url, 'eth_sendRawTransaction', [raw])).error).toBeUndefined()
    expect((await scrape(service.url)).value('preconf_pool_transactions')).toBe(1)
    await service.chain.mine()
    const after = await scrape(service.url)
    expect(after.value('preconf_head_block_number')).toBe(head + 1)
    expect(after.value('preconf_pool_transactions')).toBe(0)
    expect(after.value('preconf_flashblocks_total')).toBeGreaterThan(before.value('preconf_flashblocks_total'))
  })

  test('counts Redis errors while the limiter cannot reach Redis, and shows it down', async () => {
    await rpc(service.url, 'eth_chainId')
    const metrics = await scrape(service.url)
    expect(metrics.value('preconf_redis_errors_total')).toBeGreaterThan(0)
    expect(metrics.value('preconf_rate_limit_fail_open_total')).toBeGreaterThan(0)
    expect(metrics.value('preconf_redis_up')).toBe(0)
  })

  test('counts each rate-limited reply, in its own service only', async () => {
    // a batch larger than the per-second budget is refused whole, whatever the clock does
    const batch = [request('eth_chainId', [], 1), request('eth_chainId', [], 2), request('eth_chainId', [], 3)]
    const refusals = 2
    for (let i = 0; i < refusals; i++) expect((await post(limited.url, batch)).status).toBe(429)
    const metrics = await scrape(limited.url)
    expect(metrics.value('preconf_rate_limited_total', { endpoint: 'general', transport: 'http' })).toBe(refusals)
    expect((await scrape(service.url)).value('preconf_rate_limited_total')).toBe(0)
    // the limited service has no Redis: no Redis families at all
    expect(metrics.families.has('preconf_redis_errors_total')).toBe(false)
  })
})

describe('GET /metrics on a follower', () => {
  let leader: RunningService
  let follower: RunningFollower

  beforeAll(async () => {
    leader = await startService({ port: 0, quiet: true, rateLimit: 0, blockTimeMs: 1000, flashblockIntervalMs: 200 })
    follower = await startService({
      port: 0,
      quiet: true,
      rateLimit: 0,
      upstream: leader.url,
      upstreamFeed: `${leader.wsUrl}ws/flashblocks`,
    })
  })
  afterAll(async () => {
    await follower?.close()
    await leader?.close()
  })

  test('reports head lag, flashblock age and the feed figures the follower keeps', async () => {
    await until(() => follower.follower.pending.current() !== undefined, 'the follower to preconfirm')
    const first = await scrape(follower.url)
    await until(
      async () =>
        (await scrape(follower.url)).value('preconf_flashblocks_total') > first.value('preconf_flashblocks_total'),
      'a flashblock to be counted',
    )
    const metrics = await scrape(follower.url)
    for (const name of [
      'preconf_follower_head_lag_seconds',
      'preconf_flashblock_age_seconds',
      'preconf_follower_feed_reconnects_total',
      'preconf_follower_feed_dropped_sequences_total',
      'preconf_follower_pending_dropped_blocks_total',
    ])
      expect(metrics.has(name), name).toBe(true)
    expect(metrics.value('preconf_follower_feed_connected')).toBe(1)
    expect(metrics.value('preconf_follower_upstream_reachable')).toBe(1)
    const { feed } = follower.follower.status().follower!
    expect(metrics.value('preconf_follower_feed_reconnects_total')).toBe(feed!.reconnects)
    expect(metrics.value('preconf_follower_feed_dropped_sequences_total')).toBe(feed!.sequenceBreaks)
    // the follower's head is the leader's, or behind it by the blocks sealed since its last poll
    const leaderHead = Number((await rpc(leader.url, 'eth_blockNumber')).result)
    expect(metrics.value('preconf_head_block_number')).toBeLessThanOrEqual(leaderHead)
    expect(metrics.value('preconf_head_block_number')).toBeGreaterThan(0)
    expect(metrics.has('preconf_pool_transactions')).toBe(false)
  })
})
