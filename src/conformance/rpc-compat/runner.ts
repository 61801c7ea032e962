/**
 * Runs execution-apis' rpc-compat tests against a node as hive does: each test's `>>` requests are POSTed
 * in order and each response is compared with its `<<` (compare.ts), or for a `speconly` test its result
 * is checked against execution-apis' schema of the method (spec.ts). A test passes when all its round
 * trips do.
 */
import type { ExecutionApisSpec } from './spec.js'
import { firstDifference } from './compare.js'
import type { IoTest } from './io-file.js'

interface TestResult {
  readonly name: string
  readonly method: string
  readonly passed: boolean
  /** Why it failed: the first difference, the schema error or the transport error. */
  readonly reason?: string
}

export interface CompatReport {
  readonly results: readonly TestResult[]
  readonly passed: number
  readonly failed: number
}

/** hive's per-request timeout. */
export const REQUEST_TIMEOUT_MS = 5_000

/** `timeoutMs`: each request's (default hive's; 0 = none, for a node run without its own time budget). */
export async function runRpcCompat(
  tests: readonly IoTest[],
  url: string,
  spec?: ExecutionApisSpec,
  timeoutMs = REQUEST_TIMEOUT_MS,
): Promise<CompatReport> {
  const results: TestResult[] = []
  for (const test of tests) results.push(await runTest(test, url, spec, timeoutMs))
  const passed = results.filter((r) => r.passed).length
  return { results, passed, failed: results.length - passed }
}

async function runTest(
  test: IoTest,
  url: string,
  spec: ExecutionApisSpec | undefined,
  timeoutMs: number,
): Promise<TestResult> {
  const fail = (reason: string): TestResult => ({ name: test.name, method: test.method, passed: false, reason })
  for (const { request, response } of test.roundTrips) {
    let actual: unknown
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: request,
        signal: timeoutMs > 0 ? AbortSignal.timeout(timeoutMs) : undefined,
      })
      actual = JSON.parse(await res.text())
    } catch (err) {
      return fail(`request failed: ${(err as Error).message}`)
    }
    const expected = JSON.parse(response) as { result?: unknown; error?: unknown }
    const got = actual as { result?: unknown; error?: { message?: string } }
    if (test.specOnly && 'result' in expected) {
      if (!('result' in got)) return fail(`error instead of a result: ${JSON.stringify(got.error).slice(0, 160)}`)
      const method = (JSON.parse(request) as { method: string }).method
      const invalid = spec ? spec.check(method, got.result) : undefined
      if (invalid) return fail(invalid)
      continue
    }
    const difference = firstDifference(expected, actual)
    if (difference) {
      const note = got.error?.message ? ` (error: ${got.error.message.slice(0, 120)})` : ''
      return fail(difference + note)
    }
  }
  return { name: test.name, method: test.method, passed: true }
}

/** Passed/failed per method and the total, one line each. */
export function formatReport(report: CompatReport): string {
  const byMethod = new Map<string, { passed: number; failed: number }>()
  for (const r of report.results) {
    const counts = byMethod.get(r.method) ?? { passed: 0, failed: 0 }
    if (r.passed) counts.passed++
    else counts.failed++
    byMethod.set(r.method, counts)
  }
  const width = Math.max(...[...byMethod.keys()].map((m) => m.length))
  const lines = [...byMethod].map(
    ([method, c]) =>
      `${method.padEnd(width)}  ${String(c.passed).padStart(3)} passed  ${String(c.failed).padStart(3)} failed`,
  )
  const total = report.results.length
  const percent = total ? ((100 * report.passed) / total).toFixed(1) : '0'
  lines.push(`total: ${report.passed} passed, ${report.failed} failed of ${total} (${percent} %)`)
  return lines.join('\n')
}
