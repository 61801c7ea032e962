/**
 * Scrapes a service's GET /metrics and parses the text with parse-prometheus-text-format (a parser ported
 * from the Prometheus Python client's, which throws on a malformed line), so a test reads samples by name
 * and labels rather than by matching text. That parser folds a histogram's series into one (prom2json's
 * shape for unlabelled histograms), so a labelled histogram series is read by parsing its own lines alone.
 */
// @ts-expect-error the package ships no types; its one export is typed below
import parse from 'parse-prometheus-text-format'

interface Sample {
  labels?: Record<string, string>
  value?: string
  count?: string
  sum?: string
  buckets?: Record<string, string>
}

interface Family {
  name: string
  help: string
  type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED'
  metrics: Sample[]
}

interface Scrape {
  families: Map<string, Family>
  /** The sample of `name` whose labels include `labels`; 0 when there is none yet (a counter not yet moved). */
  value(name: string, labels?: Record<string, string>): number
  /** A histogram's observation count for `labels`. */
  count(name: string, labels?: Record<string, string>): number
  /** True when the family has a sample (a gauge left out while its value is unknown has none). */
  has(name: string): boolean
}

const matches = (sample: Sample, labels: Record<string, string>) =>
  Object.entries(labels).every(([key, value]) => sample.labels?.[key] === value)

/**
 * One histogram series, parsed as the unlabelled histogram this parser reads: the family's TYPE line and
 * the series' sample lines (those whose labels include `labels`) with every label but `le` taken off.
 */
function histogramSeries(text: string, name: string, labels: Record<string, string>): Sample | undefined {
  const pairs = Object.entries(labels).map(([key, value]) => `${key}="${value}"`)
  const series = text
    .split('\n')
    .filter((line) => /^\w+\{/.test(line) && line.startsWith(name) && pairs.every((pair) => line.includes(pair)))
    .map((line) =>
      line.replace(/\{([^}]*)\}/, (_all, inner: string) => {
        const le = /le="[^"]*"/.exec(inner)
        return le ? `{${le[0]}}` : ''
      }),
    )
  if (series.length === 0) return undefined
  return (parse(`${[`# TYPE ${name} histogram`, ...series].join('\n')}\n`) as Family[])[0]?.metrics[0]
}

export async function scrape(serviceUrl: string): Promise<Scrape & { contentType: string }> {
  const response = await fetch(new URL('/metrics', serviceUrl))
  if (response.status !== 200) throw new Error(`GET /metrics answered ${response.status}`)
  const text = await response.text()
  const families = new Map((parse(text) as Family[]).map((f) => [f.name, f]))
  const sample = (name: string, labels: Record<string, string> = {}) =>
    families.get(name)?.metrics.find((m) => matches(m, labels))
  return {
    families,
    contentType: response.headers.get('content-type') ?? '',
    value: (name, labels) => Number(sample(name, labels)?.value ?? 0),
    count: (name, labels = {}) => Number(histogramSeries(text, name, labels)?.count ?? 0),
    has: (name) => (families.get(name)?.metrics.length ?? 0) > 0,
  }
}
