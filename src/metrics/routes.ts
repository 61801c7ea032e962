/**
 * GET /metrics: the service's Prometheus registry in the text format, for the scrapers operators run.
 * GET /metrics.json: the same service's counters as one JSON object for a person with curl — rate-limit
 * health (Redis outages, requests served fail-open), live subscriptions and feed clients, the sequencer's
 * cadence (late flashblocks, jitter) and the follower's upstream and feed state.
 */
import type { FastifyInstance } from 'fastify'
import type { FollowerStatus } from '../capabilities/backend-status.js'
import type { ServiceMetrics } from './service-metrics.js'
import type { MetricSources } from './scraped-metrics.js'

export function collectMetrics(sources: MetricSources) {
  const { head, embedded, follower } = sources.backend.status()
  return {
    head: Number(head ?? 0n),
    pool: embedded?.poolSize ?? 0,
    subscriptions: sources.subscriptions.count(),
    feedClients: sources.feed.count(),
    sequencer: embedded?.cadence ?? null,
    follower: follower ? followerJson(follower) : null,
    rateLimit: sources.rateLimit?.() ?? null,
  }
}

/** JSON has no bigint and no undefined: the head as a number, an absent feed or pending feed as null. */
function followerJson(status: FollowerStatus) {
  const { upstream, feed, pending } = status
  return {
    ...status,
    upstream: { ...upstream, head: upstream.head === undefined ? null : Number(upstream.head) },
    feed: feed ?? null,
    pending: pending ?? null,
  }
}

export function registerMetrics(app: FastifyInstance, metrics: ServiceMetrics, sources: MetricSources): void {
  app.get('/metrics', async (_request, reply) => reply.type(metrics.contentType).send(await metrics.text()))
  app.get('/metrics.json', async () => collectMetrics(sources))
}
