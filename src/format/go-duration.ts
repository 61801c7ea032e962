/**
 * Go's durations (time.ParseDuration, Duration.String), as geth reads `--rpc.evmtimeout` and a tracer's
 * `timeout` and writes them back in `execution aborted (timeout = 5s)`: `300ms`, `1.5s`, `1m30s`, `0`.
 */

const NS_PER: Record<string, number> = {
  ns: 1,
  us: 1e3,
  µs: 1e3, // U+00B5 micro sign
  μs: 1e3, // U+03BC Greek mu
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
}

const TERM = /(\d*)(?:\.(\d*))?(ns|us|µs|μs|ms|s|m|h)/y

/**
 * A Go duration in milliseconds (fractions below a millisecond kept), or undefined when `text` is not one.
 * As Go: an optional sign, then one or more number-unit terms (`1h2m3.5s`); a bare `0` needs no unit.
 */
export function parseGoDuration(text: string): number | undefined {
  const sign = text.startsWith('-') ? -1 : 1
  const body = /^[-+]/.test(text) ? text.slice(1) : text
  if (body === '0') return 0
  if (body === '') return undefined
  let ns = 0
  TERM.lastIndex = 0
  while (TERM.lastIndex < body.length) {
    const match = TERM.exec(body)
    if (!match) return undefined
    const [, whole = '', fraction = ''] = match
    if (whole === '' && fraction === '') return undefined
    ns += Number(`${whole || '0'}.${fraction || '0'}`) * NS_PER[match[3]!]!
  }
  return (sign * ns) / 1e6
}

/** `value` / 10^digits as a decimal, without trailing zeros: (1500, 3) -> "1.5". */
function decimal(value: number, digits: number): string {
  const whole = Math.floor(value / 10 ** digits)
  const fraction = String(value % 10 ** digits)
    .padStart(digits, '0')
    .replace(/0+$/, '')
  return fraction ? `${whole}.${fraction}` : String(whole)
}

/** Milliseconds as Go's Duration.String writes them: 5000 -> "5s", 50 -> "50ms", 90000 -> "1m30s". */
export function formatGoDuration(ms: number): string {
  const ns = Math.round(Math.abs(ms) * 1e6)
  const sign = ms < 0 && ns > 0 ? '-' : ''
  if (ns === 0) return '0s'
  if (ns < 1e3) return `${sign}${ns}ns`
  if (ns < 1e6) return `${sign}${decimal(ns, 3)}µs`
  if (ns < 1e9) return `${sign}${decimal(ns, 6)}ms`
  const minutes = Math.floor(ns / 60e9)
  const seconds = `${decimal(ns % 60e9, 9)}s`
  if (minutes === 0) return `${sign}${seconds}`
  const hours = Math.floor(minutes / 60)
  return `${sign}${hours > 0 ? `${hours}h` : ''}${minutes % 60}m${seconds}`
}
