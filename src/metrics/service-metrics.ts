/**
 * The Prometheus registry of one service instance (tests run several services in one process, so nothing
 * lives in prom-client's global registry). The transport reports each JSON-RPC call and each rate-limited
 * reply here as it happens; everything else is read from its owner at scrape time (sources.ts), so the
 * chain, the follower and the limiter keep their own counters and need no knowledge of Prometheus.
 */
import { Counter, Registry } from 'prom-client'
import type { Endpoint } from '../../generated/methods.js'
import type { CallObserver, CallOutcome, Transport } from '../server/jsonrpc.js'
import { CallStats } from './call-stats.js'
import { registerSources, type MetricSources } from './scraped-metrics.js'

/** Request latency buckets (seconds): a cached read answers in well under a millisecond, a sync send waits a flashblock. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

export class ServiceMetrics implements CallObserver {
  readonly registry = new Registry()
  private readonly calls = new CallStats(LATENCY_BUCKETS)
  private readonly limited: Counter<'endpoint' | 'transport'>
  /** Stops listening to the backend's events. */
  readonly close: () => void

  constructor(sources: MetricSources) {
    const registers = [this.registry]
    this.calls.register(
      this.registry,
      {
        name: 'preconf_rpc_requests_total',
        help: 'JSON-RPC calls answered, by endpoint, transport, method and outcome (ok, error, internal)',
      },
      {
        name: 'preconf_rpc_request_duration_seconds',
        help: 'Time from a JSON-RPC call being read to its reply, by endpoint, transport and method',
      },
    )
    this.limited = new Counter({
      name: 'preconf_rate_limited_total',
      help: 'Bodies and WebSocket messages refused with -32005 (rate limited), by endpoint and transport',
      labelNames: ['endpoint', 'transport'],
      registers,
    })
    this.close = registerSources(this.registry, sources)
  }

  call(endpoint: Endpoint, transport: Transport, method: string, outcome: CallOutcome, seconds: number): void {
    this.calls.record(endpoint, transport, method, outcome, seconds)
  }

  rateLimited(endpoint: Endpoint, transport: Transport): void {
    this.limited.inc({ endpoint, transport })
  }

  /** The text exposition (text/plain; version=0.0.4). */
  text(): Promise<string> {
    return this.registry.metrics()
  }

  get contentType(): string {
    return this.registry.contentType
  }
}
