/**
 * The JSON-RPC call counters and latency histogram, kept as plain numbers per (endpoint, transport,
 * method) and turned into Prometheus families only when scraped. prom-client's own inc/observe validate
 * and hash a labels object on every call: a few µs of every request, more than a cached eth_call costs.
 */
import type { Registry } from 'prom-client'
import type { Endpoint } from '../../generated/methods.js'
import type { CallOutcome, Transport } from '../server/jsonrpc.js'

type CallLabels = { endpoint: Endpoint; transport: Transport; method: string }

interface Row {
  labels: CallLabels
  outcomes: Record<CallOutcome, number>
  /** Observations per bucket (not cumulative); the last one is +Inf. */
  buckets: number[]
  sum: number
  count: number
}

interface Family {
  name: string
  help: string
}

export class CallStats {
  private readonly rows: Row[] = []
  /** endpoint -> transport -> method -> row: lookups by the (interned) label strings, no key built per call. */
  private readonly index = new Map<Endpoint, Map<Transport, Map<string, Row>>>()

  constructor(private readonly bounds: readonly number[]) {}

  private rowsOf(endpoint: Endpoint, transport: Transport): Map<string, Row> {
    let byTransport = this.index.get(endpoint)
    if (!byTransport) this.index.set(endpoint, (byTransport = new Map()))
    let byMethod = byTransport.get(transport)
    if (!byMethod) byTransport.set(transport, (byMethod = new Map()))
    return byMethod
  }

  record(endpoint: Endpoint, transport: Transport, method: string, outcome: CallOutcome, seconds: number): void {
    const byMethod = this.rowsOf(endpoint, transport)
    let row = byMethod.get(method)
    if (!row) {
      const outcomes = { ok: 0, error: 0, internal: 0 }
      const buckets = new Array<number>(this.bounds.length + 1).fill(0)
      row = { labels: { endpoint, transport, method }, outcomes, buckets, sum: 0, count: 0 }
      byMethod.set(method, row)
      this.rows.push(row)
    }
    row.outcomes[outcome]++
    let i = 0
    while (i < this.bounds.length && seconds > this.bounds[i]!) i++
    row.buckets[i]!++
    row.sum += seconds
    row.count++
  }

  /** Registers the counter (by outcome) and the histogram in `registry`, read from these rows when scraped. */
  register(registry: Registry, counter: Family, histogram: Family): void {
    const metric = (family: Family, type: 'counter' | 'histogram', values: () => unknown[]) => ({
      ...family,
      type,
      aggregator: 'sum',
      get: async () => ({ ...family, type, aggregator: 'sum', values: values() }),
      reset: () => {
        this.rows.length = 0
        this.index.clear()
      },
    })
    registry.registerMetric(metric(counter, 'counter', () => this.counterValues(counter.name)) as never)
    registry.registerMetric(metric(histogram, 'histogram', () => this.histogramValues(histogram.name)) as never)
  }

  private counterValues(name: string) {
    const values = []
    for (const { labels, outcomes } of this.rows)
      for (const outcome of ['ok', 'error', 'internal'] as const)
        if (outcomes[outcome] > 0)
          values.push({ metricName: name, labels: { ...labels, outcome }, value: outcomes[outcome] })
    return values
  }

  private histogramValues(name: string) {
    const values = []
    for (const { labels, buckets, sum, count } of this.rows) {
      let cumulative = 0
      for (let i = 0; i < buckets.length; i++) {
        cumulative += buckets[i]!
        const le = i < this.bounds.length ? this.bounds[i]! : '+Inf'
        values.push({ metricName: `${name}_bucket`, labels: { ...labels, le }, value: cumulative })
      }
      values.push(
        { metricName: `${name}_sum`, labels, value: sum },
        { metricName: `${name}_count`, labels, value: count },
      )
    }
    return values
  }
}
