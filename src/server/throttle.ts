/**
 * The transport's side of rate limiting: the limiter it calls (built in src/server/rate-limit.ts by its
 * owner and passed in by service.ts), the RateLimit-* headers, and the HTTP 429 reply. Each batch item
 * costs one request; over the limit the whole body is refused before anything runs.
 */
import { RateLimitedError } from '../errors.js'
import { failure, replyId, type JsonRpcFailure } from './envelope.js'
import type { Answer } from './jsonrpc.js'

export interface RateVerdict {
  allowed: boolean
  /** Requests allowed per window. */
  limit: number
  /** Requests left in the current window (after this one). */
  remaining: number
  /** Milliseconds until the window resets. */
  resetMs: number
}

export interface RequestLimiter {
  /** The in-process windows answer at once; a shared store (Redis) answers with a promise. */
  consume(ip: string, count: number): Answer<RateVerdict>
  /** Releases connections (Redis) on shutdown. */
  close?(): Promise<void>
}

/** Seconds to wait, never 0: a client told `Retry-After: 0` retries in a tight loop. */
function retryAfterSeconds(verdict: RateVerdict): number {
  return Math.max(1, Math.ceil(verdict.resetMs / 1000))
}

/** The draft-ietf-httpapi-ratelimit-headers fields (the widely deployed `RateLimit-*` triple) for any limited reply. */
export function rateLimitHeaders(verdict: RateVerdict): Record<string, string> {
  const headers: Record<string, string> = {
    'ratelimit-limit': String(verdict.limit),
    'ratelimit-remaining': String(Math.max(0, verdict.remaining)),
    'ratelimit-reset': String(Math.max(0, Math.ceil(verdict.resetMs / 1000))),
    'ratelimit-policy': `${verdict.limit};w=1`,
  }
  if (!verdict.allowed) headers['retry-after'] = String(retryAfterSeconds(verdict))
  return headers
}

/** The -32005 reply to a refused body: one error per call of a batch (so batch clients can match ids), else one. */
export function rateLimitedBody(body: unknown, verdict: RateVerdict): JsonRpcFailure | JsonRpcFailure[] {
  const error = new RateLimitedError(verdict.limit, retryAfterSeconds(verdict)).toJSON()
  if (!Array.isArray(body) || body.length === 0) return failure(replyId(body), error)
  return body.map((message) => failure(replyId(message), error))
}
