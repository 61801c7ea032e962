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
  chain: Chain
  subscriptions: SubscriptionHub
  feed: FeedPublisher
  rateLimit?: () => RateLimiterMetrics
}

export function collectMetrics(sources: MetricsSources) {
  return {
    head: Number(sources.chain.store.height),
    pool: sources.chain.pool.size,
    subscriptions: sources.subscriptions.count(),
    feedClients: sources.feed.count(),
    sequencer: sources.chain.sequencer.stats.summary(),
    rateLimit: sources.rateLimit?.() ?? null,
  }
}

export function registerMetrics(app: FastifyInstance, sources: MetricsSources): void {
  app.get('/metrics', async () => collectMetrics(sources))
}
