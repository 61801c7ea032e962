import { afterEach, describe, expect, test } from 'vitest'
import { RATE_LIMIT_PER_SECOND } from '../limits.js'
import { createRateLimiter, type RateLimiter } from './rate-limit.js'
import { MemoryWindows } from './rate-limit-window.js'
import { rateLimitHeaders } from './throttle.js'

/** The limiter's clock, stepped by the test instead of slept through. */
class Clock {
  ms = 1_000_000
  readonly now = () => this.ms
}

let limiter: RateLimiter | undefined
afterEach(async () => {
  await limiter?.close()
  limiter = undefined
})

function memory(perSecond: number, clock = new Clock()): RateLimiter {
  limiter = createRateLimiter({ perSecond, now: clock.now })
  return limiter
}

async function admitted(target: RateLimiter, ip: string, requests: number): Promise<number> {
  let allowed = 0
  for (let i = 0; i < requests; i++) if ((await target.consume(ip, 1)).allowed) allowed++
  return allowed
}

describe('in-memory rate limit', () => {
  test('admits exactly the limit in one second, refuses the rest, and admits again the next second', async () => {
    const clock = new Clock()
    const target = memory(RATE_LIMIT_PER_SECOND, clock)
    expect(await admitted(target, '198.51.100.1', 150)).toBe(100)
    clock.ms += 999
    expect((await target.consume('198.51.100.1', 1)).allowed).toBe(false)
    clock.ms += 1
    expect(await admitted(target, '198.51.100.1', 150)).toBe(100)
  })

  test('reports the limit, what is left and when the window resets', async () => {
    const clock = new Clock()
    const target = memory(5, clock)
    expect(await target.consume('198.51.100.1', 1)).toEqual({ allowed: true, limit: 5, remaining: 4, resetMs: 1000 })
    clock.ms += 400
    expect(await target.consume('198.51.100.1', 4)).toEqual({ allowed: true, limit: 5, remaining: 0, resetMs: 600 })
    expect(await target.consume('198.51.100.1', 1)).toEqual({ allowed: false, limit: 5, remaining: 0, resetMs: 600 })
  })

  test('a batch of n costs n, and a batch that does not fit is refused whole and costs nothing', async () => {
    const target = memory(100)
    expect((await target.consume('198.51.100.1', 60)).remaining).toBe(40)
    const refused = await target.consume('198.51.100.1', 41)
    expect(refused.allowed).toBe(false)
    expect(refused.remaining).toBe(40)
    expect(await target.consume('198.51.100.1', 40)).toMatchObject({ allowed: true, remaining: 0 })
    expect((await target.consume('198.51.100.1', 1)).allowed).toBe(false)
  })

  test('each client IP has its own budget', async () => {
    const target = memory(2)
    expect(await admitted(target, '198.51.100.1', 3)).toBe(2)
    expect(await admitted(target, '198.51.100.2', 3)).toBe(2)
    expect(await admitted(target, '2001:db8::1', 3)).toBe(2)
  })

  test('a refusal carries a whole-second Retry-After of at least 1 and the RateLimit headers', async () => {
    const clock = new Clock()
    const target = memory(1, clock)
    await target.consume('198.51.100.1', 1)
    clock.ms += 999
    const verdict = await target.consume('198.51.100.1', 1)
    expect(verdict.resetMs).toBe(1)
    expect(rateLimitHeaders(verdict)).toMatchObject({
      'retry-after': '1',
      'ratelimit-limit': '1',
      'ratelimit-remaining': '0',
      'ratelimit-reset': '1',
    })
  })

  test('a rate of 0 turns limiting off', async () => {
    const target = (limiter = createRateLimiter({ perSecond: 0 }))
    expect(await admitted(target, '198.51.100.1', 1000)).toBe(1000)
    expect((await target.consume('198.51.100.1', 100)).allowed).toBe(true)
  })

  test('a rate of 0 ignores a Redis URL and never connects', async () => {
    const target = (limiter = createRateLimiter({ perSecond: 0, redisUrl: 'redis://127.0.0.1:1' }))
    expect((await target.consume('198.51.100.1', 1)).allowed).toBe(true)
    expect(target.metrics()).toEqual({ redisErrors: 0, failOpenRequests: 0, redisUp: false })
  })

  test('a negative or fractional rate is refused', () => {
    expect(() => createRateLimiter({ perSecond: -1 })).toThrow(RangeError)
    expect(() => createRateLimiter({ perSecond: 1.5 })).toThrow(RangeError)
  })

  test('windows of clients that went away are dropped, so memory does not grow with every IP ever seen', () => {
    const clock = new Clock()
    const windows = new MemoryWindows(1000, clock.now)
    for (let i = 0; i < 500; i++) windows.take(`198.51.100.${i % 250}-${i}`, 1, 10)
    windows.take('203.0.113.1', 1, 10)
    expect(windows.size()).toBe(501)
    clock.ms += 1000
    windows.take('203.0.113.2', 1, 10)
    windows.sweep()
    expect(windows.size()).toBe(1)
    windows.close()
  })
})
