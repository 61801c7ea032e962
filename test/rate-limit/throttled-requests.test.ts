import type { FastifyInstance } from 'fastify'
import { afterEach, describe, expect, test } from 'vitest'
import type { Config } from '../../src/config.js'
import { post as postTo, request } from '../support/rpc.js'
import { createTestApp } from '../support/test-app.js'
import type { RateVerdict, RequestLimiter } from '../../src/server/throttle.js'

/** A plain fixed-window budget, enough to drive the transport's side (the real limiter is src/server/rate-limit.ts). */
class BudgetLimiter implements RequestLimiter {
  readonly seen: { ip: string; count: number }[] = []
  private used = new Map<string, number>()
  constructor(private readonly limit: number) {}
  async consume(ip: string, count: number): Promise<RateVerdict> {
    this.seen.push({ ip, count })
    const used = (this.used.get(ip) ?? 0) + count
    const allowed = used <= this.limit
    if (allowed) this.used.set(ip, used)
    return {
      allowed,
      limit: this.limit,
      remaining: Math.max(0, this.limit - (allowed ? used : (this.used.get(ip) ?? 0))),
      resetMs: 400,
    }
  }
}

let app: FastifyInstance | undefined

afterEach(async () => {
  await app?.close()
  app = undefined
})

async function start(limiter: RequestLimiter, config: Partial<Config> = {}) {
  app = await createTestApp({ config, limiter })
  return app
}

const call = (id: number) => request('eth_chainId', [], id)

function post(
  target: FastifyInstance,
  payload: unknown,
  headers: Record<string, string> = {},
  remoteAddress = '127.0.0.2',
) {
  return postTo(target, payload, { headers, remoteAddress })
}

describe('rate limiting', () => {
  test('each batch item counts as one request', async () => {
    const limiter = new BudgetLimiter(100)
    const target = await start(limiter)
    await post(target, [call(1), call(2), call(3)])
    await post(target, call(4))
    expect(limiter.seen.map((entry) => entry.count)).toEqual([3, 1])
  })

  test('a served reply carries the RateLimit headers', async () => {
    const target = await start(new BudgetLimiter(5))
    const response = await post(target, call(1))
    expect(response.status).toBe(200)
    expect(response.headers['ratelimit-limit']).toBe('5')
    expect(response.headers['ratelimit-remaining']).toBe('4')
    expect(response.headers['ratelimit-reset']).toBe('1')
    expect(response.headers['retry-after']).toBeUndefined()
  })

  test('over the limit: HTTP 429, -32005 rate limit exceeded, Retry-After, and nothing runs', async () => {
    const target = await start(new BudgetLimiter(2))
    await post(target, [call(1), call(2)])
    const response = await post(target, call(3))
    expect(response.status).toBe(429)
    expect(response.headers['retry-after']).toBe('1')
    expect(response.headers['ratelimit-remaining']).toBe('0')
    expect(response.json).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: {
        code: -32005,
        message: expect.stringMatching(/^rate limit exceeded/),
        data: { limit: 2, retryAfter: 1 },
      },
    })
  })

  test('a refused batch answers each call with -32005 under its own id', async () => {
    const target = await start(new BudgetLimiter(1))
    const response = await post(target, [call(7), call(8)])
    expect(response.status).toBe(429)
    expect(response.json.map((reply: { id: number; error: { code: number } }) => [reply.id, reply.error.code])).toEqual(
      [
        [7, -32005],
        [8, -32005],
      ],
    )
  })

  test('the budget is per client IP', async () => {
    const target = await start(new BudgetLimiter(1))
    expect((await post(target, call(1), {}, '127.0.0.2')).status).toBe(200)
    expect((await post(target, call(2), {}, '127.0.0.2')).status).toBe(429)
    expect((await post(target, call(3), {}, '127.0.0.3')).status).toBe(200)
  })

  test('X-Forwarded-For from an untrusted peer does not change the client IP', async () => {
    const limiter = new BudgetLimiter(100)
    const target = await start(limiter)
    await post(target, call(1), { 'x-forwarded-for': '203.0.113.9' }, '127.0.0.2')
    expect(limiter.seen[0]!.ip).toBe('127.0.0.2')
  })

  test('X-Forwarded-For from a trusted proxy names the client', async () => {
    const limiter = new BudgetLimiter(100)
    const target = await start(limiter, { trustedProxies: ['127.0.0.8/29'] })
    await post(target, call(1), { 'x-forwarded-for': '203.0.113.9' }, '127.0.0.9')
    await post(target, call(2), { 'x-forwarded-for': '203.0.113.9' }, '127.0.0.2')
    expect(limiter.seen.map((entry) => entry.ip)).toEqual(['203.0.113.9', '127.0.0.2'])
  })

  test('a limiter fault is HTTP 500 with a -32603 body and no stack', async () => {
    // a fault the transport cannot cause: the limiter's store fails in a way it did not handle
    const broken: RequestLimiter = {
      consume: async () => Promise.reject(new Error('ECONNREFUSED 10.0.0.5:6379 at redis.ts:42')),
    }
    const target = await start(broken)
    const response = await post(target, call(1))
    expect(response.status).toBe(500)
    expect(response.json).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32603, message: 'internal error' } })
  })
})
