/**
 * hive rpc-compat's comparison of a response with the recorded one: the whole JSON, key order free,
 * `null` not the same as an absent key, strings (hex included) exact, numbers by value. Error messages are
 * not compared (clients word them differently): `message` is dropped from every error object on both
 * sides, nested ones too (eth_simulateV1's per-call errors), so codes and data must match.
 */

/** The first difference as a JSON path and the two values, or undefined when equal. */
export function firstDifference(expected: unknown, actual: unknown): string | undefined {
  return diff(withoutErrorMessages(expected), withoutErrorMessages(actual), '$')
}

function withoutErrorMessages(value: unknown, inError = false): unknown {
  if (Array.isArray(value)) return value.map((v) => withoutErrorMessages(v, inError))
  if (value === null || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const [key, v] of Object.entries(value)) {
    if (inError && key === 'message') continue
    out[key] = withoutErrorMessages(v, key === 'error')
  }
  return out
}

function diff(expected: unknown, actual: unknown, path: string): string | undefined {
  if (expected === actual) return undefined
  const show = (v: unknown) => (v === undefined ? 'absent' : JSON.stringify(v).slice(0, 160))
  const differs = () => `${path}: want ${show(expected)}, got ${show(actual)}`
  if (typeof expected !== 'object' || typeof actual !== 'object' || expected === null || actual === null)
    return differs()
  if (Array.isArray(expected) !== Array.isArray(actual)) return differs()
  if (Array.isArray(expected)) {
    const got = actual as unknown[]
    if (expected.length !== got.length) return `${path}: want ${expected.length} items, got ${got.length}`
    for (let i = 0; i < expected.length; i++) {
      const d = diff(expected[i], got[i], `${path}[${i}]`)
      if (d) return d
    }
    return undefined
  }
  const want = expected as Record<string, unknown>
  const got = actual as Record<string, unknown>
  for (const key of new Set([...Object.keys(want), ...Object.keys(got)])) {
    const d = diff(want[key], got[key], `${path}.${key}`)
    if (d) return d
  }
  return undefined
}
