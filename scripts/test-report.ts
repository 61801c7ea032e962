/**
 * What a test run left behind, for the one-line summaries of `.ci/run` (scripts/ci-summary.ts) and
 * `npm run test:stress`: the JSON report (vitest.config.ts's json reporter) read into tests passed, failed
 * (by name) and skipped, and the test files it never mentions.
 *
 * Files never mentioned: vitest 4 sends a dying worker the files queued for it, each send fails with
 * `write EPIPE` ("Worker forks emitted error"), and those files are neither run nor reported. A summary of
 * the report alone printed `1285 passed, 1 failed` for a CI run that left 169 of 222 files out; each such
 * file counts as one failure here.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { TEST_FILES } from '../test/support/test-files.js'

export const ROOT = join(import.meta.dirname, '..')

interface Report {
  numPassedTests: number
  numPendingTests: number
  testResults: {
    name: string
    status: string
    message?: string
    assertionResults: { fullName: string; status: string; failureMessages?: string[] }[]
  }[]
}

interface Failure {
  /** `file > describe test`, or `file (file failed)` for a file that failed with no failed test (it did not load). */
  name: string
  /** The first line of what failed, without colours. */
  reason: string
}

export interface RunOutcome {
  passed: number
  skipped: number
  failures: Failure[]
  /** Test files (relative to the root) the report does not mention: they never ran. */
  neverRan: string[]
  /** What the summary line counts as failed: the failures and the files that never ran. */
  failed: number
}

const firstLine = (text = '') =>
  stripVTControlCharacters(text)
    .split('\n')
    .find((line) => line.trim() !== '')
    ?.trim() ?? ''

/** The test files of this checkout (git's list, as CI's clone has them), or none outside a git checkout. */
function testFiles(): string[] {
  const globs = TEST_FILES.map((glob) => `:(glob)${glob}`)
  try {
    return execFileSync('git', ['ls-files', '-z', '--', ...globs], { cwd: ROOT, encoding: 'utf8' })
      .split('\0')
      .filter(Boolean)
  } catch {
    return []
  }
}

/**
 * The outcome in the report at `path`, or undefined when there is none (vitest died before writing it, or a
 * type-check failure ended the command first). `wholeSuite`: the run was of every file (no filters), so a
 * file the report does not mention never ran.
 */
export function readOutcome(path: string, { wholeSuite }: { wholeSuite: boolean }): RunOutcome | undefined {
  let report: Report
  try {
    report = JSON.parse(readFileSync(path, 'utf8')) as Report
  } catch {
    return undefined
  }
  const failures: Failure[] = []
  for (const file of report.testResults) {
    const name = relative(ROOT, file.name)
    const failedTests = file.assertionResults.filter((t) => t.status === 'failed')
    for (const t of failedTests)
      failures.push({ name: `${name} > ${t.fullName}`, reason: firstLine(t.failureMessages?.[0]) })
    // vitest also counts a failed test's file and describe blocks as failed suites: not failures of their own
    if (file.status === 'failed' && failedTests.length === 0)
      failures.push({ name: `${name} (file failed)`, reason: firstLine(file.message) })
  }
  const reported = new Set(report.testResults.map((f) => relative(ROOT, f.name)))
  const neverRan = wholeSuite ? testFiles().filter((f) => !reported.has(f)) : []
  return {
    passed: report.numPassedTests,
    skipped: report.numPendingTests,
    failures,
    neverRan,
    failed: failures.length + neverRan.length,
  }
}
