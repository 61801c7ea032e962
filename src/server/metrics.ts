/**
 * GET /metrics: the service's Prometheus registry in the text format, for the scrapers operators run.
 * GET /metrics.json: the same service's counters as one JSON object for a person with curl — rate-limit
 * health (Redis outages, requests served fail-open), live subscriptions and feed clients, the sequencer's
 * cadence (late flashblocks, jitter) and the follower's upstream and feed state.
 */
import type { FastifyInstance } from 'fastify'
import type { ServiceMetrics } from '../metrics/service-metrics.js'
import type { MetricSources } from '../metrics/scraped-metrics.js'

export function collectMetrics(sources: MetricSources) {
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

export function registerMetrics(app: FastifyInstance, metrics: ServiceMetrics, sources: MetricSources): void {
  app.get('/metrics', async (_request, reply) => reply.type(metrics.contentType).send(await metrics.text()))
  app.get('/metrics.json', async () => collectMetrics(sources))
}
