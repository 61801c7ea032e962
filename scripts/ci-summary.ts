/**
 * The end of `.ci/run`'s output: what went wrong, in a few lines (only the end of a CI log may be seen:
 * a dead worker's hundred `write EPIPE` errors once filled it), then the one line `N passed, M failed`.
 *
 * `tsx scripts/ci-summary.ts <report.json> <npm test's exit code> <npm test's output>`
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { WORKER_NOTE } from '../test/support/worker-notes.js'
import { ROOT, readOutcome } from './test-report.js'

/** Where the test workers' --report-on-fatalerror reports go (vitest.config.ts). */
const NODE_REPORTS = join(ROOT, 'test-results', 'node-reports')
const SHOWN = 15

const [reportPath, status, logPath] = process.argv.slice(2)
if (!reportPath || !status || !logPath) throw new Error('usage: ci-summary.ts <report.json> <exit code> <output log>')

interface NodeReport {
  header: { event: string; trigger: string; processId: number }
  javascriptStack?: { message?: string; stack?: string[] }
}

/** Why a test worker ended mid-run, in its own words (worker-watch.ts) and in V8's (the reports). */
function workerEnds(): string[] {
  const log = existsSync(logPath) ? readFileSync(logPath, 'utf8').split('\n') : []
  const notes = [...new Set(log.filter((line) => WORKER_NOTE.test(line)))]
  const reports = existsSync(NODE_REPORTS) ? readdirSync(NODE_REPORTS).filter((f) => f.endsWith('.json')) : []
  return [
    ...notes,
    ...reports.map((file) => {
      const { header, javascriptStack } = JSON.parse(readFileSync(join(NODE_REPORTS, file), 'utf8')) as NodeReport
      const stack = (javascriptStack?.stack ?? []).slice(0, 3).map((s) => s.trim())
      return `process ${header.processId}: ${header.event} (${header.trigger}): ${javascriptStack?.message ?? ''} ${stack.join(' ')}`
    }),
  ]
}

const outcome = readOutcome(reportPath, { wholeSuite: true })
const lines: string[] = []
if (outcome) {
  for (const { name, reason } of outcome.failures.slice(0, SHOWN))
    lines.push(`failed: ${name}${reason ? `: ${reason}` : ''}`)
  if (outcome.failures.length > SHOWN) lines.push(`failed: ${outcome.failures.length - SHOWN} more (above)`)
  if (outcome.neverRan.length > 0) {
    const some = outcome.neverRan.slice(0, SHOWN).join(', ')
    const more = outcome.neverRan.length > SHOWN ? ` and ${outcome.neverRan.length - SHOWN} more` : ''
    lines.push(
      `never ran (a test worker died and vitest lost its queue): ${outcome.neverRan.length} files: ${some}${more}`,
    )
  }
}
lines.push(...workerEnds())
if (lines.length > 0)
  console.log(['', 'What went wrong (the details are above):', ...lines.map((l) => `  ${l}`), ''].join('\n'))

// npm test type-checks beside vitest: a failed type check (its errors printed above) with every test green
const failed = !outcome ? 1 : status !== '0' && outcome.failed === 0 ? 1 : outcome.failed
const skipped = outcome?.skipped ? `, ${outcome.skipped} skipped` : ''
console.log(`${outcome?.passed ?? 0} passed, ${failed} failed${skipped}`)
process.exitCode = failed > 0 ? 1 : 0
