/**
 * The fixed-window pieces both limiter stores share: the decision record, its conversion to the transport's
 * verdict, the limiter's public shape, and the in-process window store.
 */
import type { RateVerdict, RequestLimiter } from './throttle.js'
import { RATE_LIMIT_SWEEP_INTERVAL_MS } from '../limits.js'

export interface RateLimiterMetrics {
  /** Redis failures seen: failed commands and failed (re)connection attempts. */
  redisErrors: number
  /** Requests served without a limit because Redis was unreachable (fail-open). */
  failOpenRequests: number
  /** Redis answered the last command (or the connection is ready). False when memory-only. */
  redisUp: boolean
}

export interface RateLimiter extends RequestLimiter {
  close(): Promise<void>
  metrics(): RateLimiterMetrics
}

export interface RateLimitLogger {
  warn(obj: object, msg: string): void
  info?(obj: object, msg: string): void
}

/** One fixed-window decision, shared by the memory and Redis stores. */
export interface WindowState {
  allowed: boolean
  /** Requests counted in the window after this decision. */
  used: number
  /** Milliseconds until the window ends. */
  ttlMs: number
}

export function verdictOf(state: WindowState, limit: number): RateVerdict {
  return {
    allowed: state.allowed,
    limit,
    remaining: Math.max(0, limit - state.used),
    resetMs: Math.max(0, state.ttlMs),
  }
}

/** Fixed windows in this process's memory. */
export class MemoryWindows {
  private readonly windows = new Map<string, { used: number; endsAt: number }>()
  private readonly sweeper: NodeJS.Timeout

  constructor(
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.sweeper = setInterval(() => this.sweep(), RATE_LIMIT_SWEEP_INTERVAL_MS)
    this.sweeper.unref()
  }

  take(key: string, points: number, limit: number): WindowState {
    const now = this.now()
    let window = this.windows.get(key)
    if (window === undefined || window.endsAt <= now) {
      window = { used: 0, endsAt: now + this.windowMs }
      this.windows.set(key, window)
    }
    const ttlMs = window.endsAt - now
    if (window.used + points > limit) return { allowed: false, used: window.used, ttlMs }
    window.used += points
    return { allowed: true, used: window.used, ttlMs }
  }

  /** IPs with an open window (tests check the sweep). */
  size(): number {
    return this.windows.size
  }

  sweep(): void {
    const now = this.now()
    for (const [key, window] of this.windows) if (window.endsAt <= now) this.windows.delete(key)
  }

  close(): void {
    clearInterval(this.sweeper)
    this.windows.clear()
  }
}
