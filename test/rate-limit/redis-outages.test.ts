import { randomUUID } from 'node:crypto'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { createRateLimiter, type RateLimiter, type RateLimiterOptions } from '../../src/server/rate-limit.js'
import { TestRedis } from '../support/redis-server.js'
import { until } from '../support/wait-for.js'
import { HAVE_REDIS_SERVER } from '../support/system-tools.js'
import { rateLimitHeaders } from '../../src/server/throttle.js'

/** What the limiter logged, in order. */
class RecordingLogger {
  readonly lines: { level: 'warn' | 'info'; msg: string }[] = []
  warn(_obj: object, msg: string) {
    this.lines.push({ level: 'warn', msg })
  }
  info(_obj: object, msg: string) {
    this.lines.push({ level: 'info', msg })
  }
  count(pattern: RegExp): number {
    return this.lines.filter((line) => pattern.test(line.msg)).length
  }
}

const OUTAGE = /^Redis unreachable/
const RECOVERED = /^Redis reachable again/

describe.skipIf(!HAVE_REDIS_SERVER)('shared rate limit through Redis', () => {
  let redis: TestRedis
  const limiters: RateLimiter[] = []

  beforeAll(async () => {
    redis = await TestRedis.start()
  })
  afterAll(async () => {
    await redis?.kill()
  })
  afterEach(async () => {
    await Promise.all(limiters.splice(0).map((limiter) => limiter.close()))
    // a test that killed Redis leaves it running again for the next one
    await redis.restart().catch(() => {})
  })

  /** A limiter on the test Redis; tests share a key prefix to share counters. 10 s windows cannot straddle a slow moment. */
  async function connected(options: Partial<RateLimiterOptions> & { keyPrefix: string }): Promise<RateLimiter> {
    const limiter = createRateLimiter({ perSecond: 100, redisUrl: redis.url, windowMs: 10_000, ...options })
    limiters.push(limiter)
    await until(() => limiter.metrics().redisUp, 'the limiter to connect to Redis')
    return limiter
  }
  const prefix = () => `test:${randomUUID()}:`

  test('two limiters sharing one Redis admit the limit together, not twice', async () => {
    const keyPrefix = prefix()
    const replicas = [await connected({ keyPrefix }), await connected({ keyPrefix })]
    let allowed = 0
    for (let i = 0; i < 300; i++) if ((await replicas[i % 2]!.consume('198.51.100.1', 1)).allowed) allowed++
    expect(allowed).toBe(100)
    // another client is unaffected
    expect((await replicas[1]!.consume('198.51.100.2', 1)).allowed).toBe(true)
  })

  test('both replicas see one remaining count and one reset time', async () => {
    const keyPrefix = prefix()
    const [a, b] = [await connected({ keyPrefix, perSecond: 5 }), await connected({ keyPrefix, perSecond: 5 })]
    expect((await a.consume('198.51.100.1', 1)).remaining).toBe(4)
    expect((await b.consume('198.51.100.1', 3)).remaining).toBe(1)
    const refused = await a.consume('198.51.100.1', 2)
    expect(refused).toMatchObject({ allowed: false, limit: 5, remaining: 1 })
    expect(refused.resetMs).toBeGreaterThan(0)
    expect(refused.resetMs).toBeLessThanOrEqual(10_000)
    expect(rateLimitHeaders(refused)['retry-after']).toMatch(/^([1-9]|10)$/)
  })

  test('a batch that does not fit is refused whole on every replica and costs nothing', async () => {
    const keyPrefix = prefix()
    const [a, b] = [await connected({ keyPrefix }), await connected({ keyPrefix })]
    expect((await a.consume('198.51.100.1', 60)).allowed).toBe(true)
    expect(await b.consume('198.51.100.1', 41)).toMatchObject({ allowed: false, remaining: 40 })
    expect(await b.consume('198.51.100.1', 40)).toMatchObject({ allowed: true, remaining: 0 })
  })

  test('a new window admits again once the old one has expired', async () => {
    const limiter = await connected({ keyPrefix: prefix(), perSecond: 3, windowMs: 300 })
    expect((await limiter.consume('198.51.100.1', 3)).allowed).toBe(true)
    const refused = await limiter.consume('198.51.100.1', 1)
    expect(refused.allowed).toBe(false)
    await new Promise((resolve) => setTimeout(resolve, refused.resetMs + 20))
    expect(await limiter.consume('198.51.100.1', 3)).toMatchObject({ allowed: true, remaining: 0 })
  })

  test('Redis dying mid-run: requests are served, the outage is logged once and counted; limits return with Redis', async () => {
    const logger = new RecordingLogger()
    const limiter = await connected({ keyPrefix: prefix(), perSecond: 10, logger })
    expect((await limiter.consume('198.51.100.1', 10)).allowed).toBe(true)
    expect((await limiter.consume('198.51.100.1', 1)).allowed).toBe(false)

    await redis.kill()
    for (let i = 0; i < 50; i++) expect((await limiter.consume('198.51.100.1', 1)).allowed).toBe(true)
    // let several reconnection attempts fail: none of them may log again
    await until(() => limiter.metrics().redisErrors >= 55, 'reconnection attempts')
    expect((await limiter.consume('198.51.100.1', 1)).allowed).toBe(true)
    expect(limiter.metrics()).toMatchObject({ failOpenRequests: 51, redisUp: false })
    expect(logger.count(OUTAGE)).toBe(1)
    expect(logger.lines[0]!.msg).toMatch(/serving requests without the shared rate limit/)

    await redis.restart()
    await until(() => limiter.metrics().redisUp, 'the limiter to reconnect')
    expect(logger.count(RECOVERED)).toBe(1)
    let allowed = 0
    for (let i = 0; i < 15; i++) if ((await limiter.consume('198.51.100.1', 1)).allowed) allowed++
    expect(allowed).toBe(10)
    expect(limiter.metrics().failOpenRequests).toBe(51)
    expect(logger.count(OUTAGE)).toBe(1)
  })

  test('fail-closed: while Redis is down every request is refused with a Retry-After', async () => {
    const logger = new RecordingLogger()
    const limiter = await connected({ keyPrefix: prefix(), perSecond: 10, failClosed: true, windowMs: 1000, logger })
    expect((await limiter.consume('198.51.100.1', 1)).allowed).toBe(true)

    await redis.kill()
    for (let i = 0; i < 5; i++) {
      const verdict = await limiter.consume('198.51.100.1', 1)
      expect(verdict).toEqual({ allowed: false, limit: 10, remaining: 0, resetMs: 1000 })
      expect(rateLimitHeaders(verdict)['retry-after']).toBe('1')
    }
    expect(limiter.metrics().failOpenRequests).toBe(0)
    expect(logger.count(OUTAGE)).toBe(1)
    expect(logger.lines[0]!.msg).toMatch(/refusing requests/)

    await redis.restart()
    await until(() => limiter.metrics().redisUp, 'the limiter to reconnect')
    expect((await limiter.consume('198.51.100.1', 1)).allowed).toBe(true)
  })

  test('a hung Redis does not hold requests: they are answered as in an outage, and service resumes with Redis', async () => {
    const logger = new RecordingLogger()
    const limiter = await connected({ keyPrefix: prefix(), perSecond: 10, logger })
    redis.pause()
    try {
      expect((await limiter.consume('198.51.100.1', 1)).allowed).toBe(true)
      expect((await limiter.consume('198.51.100.1', 1)).allowed).toBe(true)
      expect(limiter.metrics().redisUp).toBe(false)
      expect(logger.count(OUTAGE)).toBe(1)
    } finally {
      redis.resume()
    }
    await until(async () => {
      await limiter.consume('198.51.100.2', 1)
      return limiter.metrics().redisUp
    }, 'Redis to answer again')
    expect(logger.count(RECOVERED)).toBe(1)
  })

  test('a Redis that is down from the start: the service still serves and says so once', async () => {
    const logger = new RecordingLogger()
    await redis.kill()
    const limiter = createRateLimiter({ perSecond: 10, redisUrl: redis.url, logger })
    limiters.push(limiter)
    await until(() => limiter.metrics().redisErrors >= 3, 'a failed connection attempt')
    for (let i = 0; i < 20; i++) expect((await limiter.consume('198.51.100.1', 1)).allowed).toBe(true)
    expect(logger.count(OUTAGE)).toBe(1)
    expect(limiter.metrics()).toMatchObject({ failOpenRequests: 20, redisUp: false })
  })
})
