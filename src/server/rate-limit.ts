/**
 * The per-IP request limiter the transport calls once per HTTP body or WebSocket message
 * (src/server/throttle.ts holds its interface, the RateLimit-* headers and the 429 reply).
 *
 * Algorithm: a fixed window of `windowMs` (1 s) per IP, opened by the IP's first request. Chosen over a token
 * bucket because the spec's limit is literally "100 requests per second", because it needs one atomic Redis
 * round trip with no clock of our own (Redis's key TTL is the window, so replicas with skewed clocks agree),
 * and because Retry-After / RateLimit-Reset are then exact: the time until the window's key expires. The
 * price is the usual burst of up to 2x the limit across a window boundary, which a public RPC tolerates.
 *
 * A body of n calls costs n. A body that does not fit is refused whole and costs nothing, so a client
 * that retries a big batch is not locked out by its own refusals.
 */
import { createRedisLimiter, type RedisLimiterOptions } from './rate-limit-redis.js'
import { MemoryWindows, verdictOf, type RateLimiter, type RateLimitLogger } from './rate-limit-window.js'

export type { RateLimiter, RateLimitLogger } from './rate-limit-window.js'

export interface RateLimiterOptions {
  /** Requests per window per IP; 0 turns limiting off (every request is allowed). */
  perSecond: number
  /** Share one limit between replicas through this Redis (redis://host:port). Absent: in-process memory. */
  redisUrl?: string
  /** While Redis is unreachable refuse every request instead of serving them unlimited. */
  failClosed?: boolean
  logger?: RateLimitLogger
  /** Window length; 1000 in the service. Tests lengthen it so a slow machine cannot straddle two windows. */
  windowMs?: number
  /** Memory limiter's clock (ms), for tests that step through windows without sleeping. */
  now?: () => number
  /** Redis key prefix, so tests (or several services on one Redis) can keep separate counters. */
  keyPrefix?: string
}

function unlimited(): RateLimiter {
  return {
    consume: () => ({ allowed: true, limit: 0, remaining: 0, resetMs: 0 }),
    close: async () => {},
    metrics: () => ({ redisErrors: 0, failOpenRequests: 0, redisUp: false }),
  }
}

function memoryLimiter(perSecond: number, windows: MemoryWindows): RateLimiter {
  return {
    consume: (ip, count) => verdictOf(windows.take(ip, count, perSecond), perSecond),
    close: async () => windows.close(),
    metrics: () => ({ redisErrors: 0, failOpenRequests: 0, redisUp: false }),
  }
}

/**
 * The service's log lines for the limiter, on stderr. An outage is shown even with --quiet (it changes what
 * the service enforces, which an operator must learn of); the recovery note is informational.
 */
export function consoleRateLimitLogger(quiet: boolean): RateLimitLogger {
  const line = (msg: string, obj: object) =>
    `rate limit: ${msg} (${Object.entries(obj)
      .map(([key, value]) => `${key}=${String(value)}`)
      .join(', ')})`
  return {
    warn: (obj, msg) => console.warn(line(msg, obj)),
    info: (obj, msg) => {
      if (!quiet) console.warn(line(msg, obj))
    },
  }
}

export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const { perSecond } = options
  if (!Number.isInteger(perSecond) || perSecond < 0)
    throw new RangeError(`perSecond must be a whole number >= 0, got ${perSecond}`)
  if (perSecond === 0) return unlimited()
  const windowMs = options.windowMs ?? 1000
  if (options.redisUrl === undefined) return memoryLimiter(perSecond, new MemoryWindows(windowMs, options.now))
  const redisOptions: RedisLimiterOptions = {
    url: options.redisUrl,
    windowMs,
    keyPrefix: options.keyPrefix ?? 'preconf-rpc:ratelimit:',
    failClosed: options.failClosed ?? false,
    logger: options.logger,
  }
  return createRedisLimiter(perSecond, redisOptions)
}
