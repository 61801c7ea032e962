/**
 * The conformance run as a person reads it: one row per method with its passed / failed / skipped
 * examples, then every failure and skip with its reason.
 */
import type { ConformanceCase } from './case.js'
import type { Outcome } from './session.js'

export interface CaseResult {
  case: ConformanceCase
  outcome: Outcome
}

export interface Totals {
  passed: number
  failed: number
  skipped: number
}

export function totals(results: readonly CaseResult[]): Totals {
  const sum: Totals = { passed: 0, failed: 0, skipped: 0 }
  for (const { outcome } of results) sum[outcome.status]++
  return sum
}

/** Methods with at least one failed example. */
export function failedMethods(results: readonly CaseResult[]): string[] {
  return [...new Set(results.filter((r) => r.outcome.status === 'failed').map((r) => r.case.method))].sort()
}

export function formatReport(results: readonly CaseResult[]): string {
  const byMethod = new Map<string, CaseResult[]>()
  for (const result of results) byMethod.set(result.case.method, [...(byMethod.get(result.case.method) ?? []), result])
  const rows = [...byMethod]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([method, list]) => [method, ...Object.values(totals(list)).map(String)])
  const header = ['method', 'passed', 'failed', 'skipped']
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]!.length)))
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ')
  const notes = results
    .filter((r) => r.outcome.status !== 'passed')
    .map(
      (r) =>
        `${r.outcome.status === 'failed' ? 'FAIL' : 'skip'}  ${r.case.id} [${r.case.endpoint}]: ${r.outcome.reason}`,
    )
  const sum = totals(results)
  return [
    line(header),
    ...rows.map(line),
    '',
    ...(notes.length > 0 ? [...notes, ''] : []),
    `${sum.passed} passed, ${sum.failed} failed, ${sum.skipped} skipped (${results.length} examples, ${byMethod.size} methods)`,
  ].join('\n')
}
