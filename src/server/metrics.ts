/**
 * GET /metrics: the counters an operator watches, as JSON — rate-limit health (Redis outages, requests served
 * fail-open), live subscriptions and feed clients, and the sequencer's cadence (late flashblocks, jitter).
 */
import type { FastifyInstance } from 'fastify'
import type { Chain } from '../chain/chain.js'
import type { FeedPublisher } from '../feed/publisher.js'
import type { SubscriptionHub } from '../subscriptions/hub.js'
import type { RateLimiterMetrics } from './rate-limit-window.js'

export interface MetricsSources {
  /** The embedded chain, or (follower mode) the follower. */
  chain?: Chain
  follower?: { metrics(): object; readonly cache: { readonly height: bigint | undefined } }
  subscriptions: SubscriptionHub
  feed: FeedPublisher
  rateLimit?: () => RateLimiterMetrics
}

export function collectMetrics(sources: MetricsSources) {
  const { chain, follower } = sources
  return {
    head: Number(chain?.store.height ?? follower?.cache.height ?? 0n),
    pool: chain?.pool.size ?? 0,
    subscriptions: sources.subscriptions.count(),
    feedClients: sources.feed.count(),
    sequencer: chain?.sequencer.stats.summary() ?? null,
    follower: follower?.metrics() ?? null,
    rateLimit: sources.rateLimit?.() ?? null,
  }
}

export function registerMetrics(app: FastifyInstance, sources: MetricsSources): void {
  app.get('/metrics', async () => collectMetrics(sources))
}
