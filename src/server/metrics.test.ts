import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startService, type RunningService } from '../service.js'
import type { collectMetrics } from './metrics.js'

describe('GET /metrics', () => {
  let service: RunningService
  beforeAll(async () => {
    // a Redis nobody listens on: the limiter serves fail-open and the metric shows it
    service = await startService({ port: 0, quiet: true, redisUrl: 'redis://127.0.0.1:1' })
  })
  afterAll(() => service?.close())

  test('shows the chain head, the sequencer cadence and requests served while Redis is unreachable', async () => {
    const call = () => fetch(service.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}' })
    expect(((await (await call()).json()) as { result: string }).result).toBe('0xc4')
    await call()
    await service.chain.mine()
    const metrics = (await (await fetch(new URL('/metrics', service.url))).json()) as ReturnType<typeof collectMetrics>
    expect(metrics.head).toBeGreaterThanOrEqual(1)
    expect(metrics.subscriptions).toBe(0)
    expect(metrics.rateLimit?.redisUp).toBe(false)
    expect(metrics.rateLimit?.failOpenRequests).toBeGreaterThanOrEqual(2)
    expect(metrics.sequencer).toBeTypeOf('object')
  })
})
