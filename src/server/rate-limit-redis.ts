/**
 * The fixed window kept in Redis, so every replica pointed at the same Redis enforces one limit per IP.
 * One Lua script reads and bumps the counter atomically; the key's TTL is the window, on Redis's clock.
 *
 * Redis being unreachable must never stall or crash the RPC: commands fail at once instead of queueing
 * (no offline queue, short connect and command timeouts), reconnection continues in the background with a
 * capped backoff, and each outage is logged once when it starts and once when it ends. Meanwhile requests
 * are served unlimited (fail-open) or refused (fail-closed), and the metrics count them.
 */
import { ioredis } from '../load-on-use.js'
import { verdictOf, type RateLimiter, type RateLimiterMetrics, type RateLimitLogger } from './rate-limit-window.js'
import type { RateVerdict } from './throttle.js'
import { REDIS_COMMAND_TIMEOUT_MS, REDIS_MAX_RECONNECT_DELAY_MS } from '../limits.js'

export interface RedisLimiterOptions {
  url: string
  windowMs: number
  keyPrefix: string
  failClosed: boolean
  logger?: RateLimitLogger
}

/**
 * KEYS[1] the IP's counter; ARGV points, limit, window ms. Returns {allowed 0|1, used, ttl ms}. A body that
 * does not fit leaves the counter as it was. SET ... PX opens a window; INCRBY keeps the key's TTL.
 */
const TAKE_SCRIPT = `
local points = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local ttl = redis.call('PTTL', KEYS[1])
local used = 0
if ttl > 0 then
  used = tonumber(redis.call('GET', KEYS[1])) or 0
else
  ttl = tonumber(ARGV[3])
end
if used + points > limit then
  return {0, used, ttl}
end
if used == 0 then
  redis.call('SET', KEYS[1], points, 'PX', ttl)
else
  redis.call('INCRBY', KEYS[1], points)
end
return {1, used + points, ttl}
`

/** The URL as logs may show it: without a password. */
function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url)
    if (parsed.password !== '') parsed.password = '***'
    return parsed.toString()
  } catch {
    return 'redis'
  }
}

export function createRedisLimiter(limit: number, options: RedisLimiterOptions): RateLimiter {
  const redis = new (ioredis().Redis)(options.url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 1000,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    retryStrategy: (attempt) => Math.min(attempt * 100, REDIS_MAX_RECONNECT_DELAY_MS),
  })
  const where = { redis: redactedUrl(options.url) }
  // 'starting' is the first connect: a request that races it is served like an outage but logs nothing
  let state: 'starting' | 'up' | 'down' | 'closed' = 'starting'
  const counters = { redisErrors: 0, failOpenRequests: 0 }
  // a function, so TypeScript does not narrow `state` across an await that close() may interleave with
  const closed = () => state === 'closed'

  const markDown = (err: unknown) => {
    if (state === 'down' || state === 'closed') return
    state = 'down'
    const message = options.failClosed
      ? 'Redis unreachable: refusing requests until it is back (--rate-limit-fail-closed)'
      : 'Redis unreachable: serving requests without the shared rate limit until it is back'
    options.logger?.warn({ ...where, err: (err as Error)?.message ?? String(err) }, message)
  }
  const markUp = () => {
    if (state === 'down') {
      const log = options.logger?.info ?? options.logger?.warn
      log?.call(options.logger, where, 'Redis reachable again: shared rate limit enforced')
    }
    if (state !== 'closed') state = 'up'
  }

  // without a listener ioredis prints every failed reconnection attempt
  redis.on('error', (err) => {
    if (state === 'closed') return
    counters.redisErrors++
    markDown(err)
  })
  redis.on('ready', markUp)

  const outageVerdict = (count: number): RateVerdict => {
    if (options.failClosed) return { allowed: false, limit, remaining: 0, resetMs: options.windowMs }
    counters.failOpenRequests++
    return { allowed: true, limit, remaining: Math.max(0, limit - count), resetMs: options.windowMs }
  }

  return {
    async consume(ip, count) {
      if (closed()) return outageVerdict(count)
      try {
        const reply = (await redis.eval(TAKE_SCRIPT, 1, options.keyPrefix + ip, count, limit, options.windowMs)) as [
          number,
          number,
          number,
        ]
        markUp()
        return verdictOf({ allowed: reply[0] === 1, used: reply[1], ttlMs: reply[2] }, limit)
      } catch (err) {
        if (!closed()) {
          counters.redisErrors++
          if (state !== 'starting') markDown(err)
        }
        return outageVerdict(count)
      }
    },
    metrics: (): RateLimiterMetrics => ({ ...counters, redisUp: state === 'up' }),
    async close() {
      state = 'closed'
      redis.disconnect()
    },
  }
}
