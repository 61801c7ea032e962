/**
 * `npm run test:stress -- --runs N [--hogs H] [file filters]`: the README's test command (`npm test`: tsc beside
 * vitest run; the filters, if any, narrow vitest to those files) N times in a row, each beside H processes spinning a CPU core (default 2: a 2-core CI machine that is also
 * doing something else). One line per run (pass/fail counts, duration, the failed tests by name), then
 * `runs: N, green: K`. Each run's output and JSON report stay in test-results/stress/ for a failure's detail.
 * Exits non-zero unless every run was green.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { ROOT, readOutcome } from './test-report.js'

const { values, positionals: files } = parseArgs({
  options: { runs: { type: 'string', default: '5' }, hogs: { type: 'string', default: '2' } },
  allowPositionals: true,
})
const runs = Number(values.runs)
const hogCount = Number(values.hogs)
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs: a whole number of runs, got ${values.runs}`)
if (!Number.isInteger(hogCount) || hogCount < 0) throw new Error(`--hogs: a whole number, got ${values.hogs}`)

const dir = join(ROOT, 'test-results', 'stress')
mkdirSync(dir, { recursive: true })

let hogs: ChildProcess[] = []
const stopHogs = () => {
  for (const hog of hogs) hog.kill('SIGKILL')
  hogs = []
}
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    stopHogs()
    process.exit(130)
  })

/** One `npm test` beside the hogs: its line, and whether it was green. */
async function run(n: number): Promise<boolean> {
  const json = join(dir, `run-${n}.json`)
  const log = join(dir, `run-${n}.log`)
  writeFileSync(json, '')
  hogs = Array.from({ length: hogCount }, () => spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }))
  const started = performance.now()
  const output: Buffer[] = []
  const code = await new Promise<number | null>((resolve) => {
    const test = spawn('npm', ['test', '--', `--outputFile.json=${json}`, ...files], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    test.stdout.on('data', (chunk: Buffer) => output.push(chunk))
    test.stderr.on('data', (chunk: Buffer) => output.push(chunk))
    test.on('close', resolve)
  })
  const seconds = Math.round((performance.now() - started) / 1000)
  stopHogs()
  writeFileSync(log, Buffer.concat(output))
  const outcome = readOutcome(json, { wholeSuite: files.length === 0 })
  const head = `run ${n}/${runs}:`
  if (!outcome) {
    console.log(`${head} red, no report (exit ${code}, ${seconds} s; see ${log})`)
    return false
  }
  const failed = [...outcome.failures.map((f) => f.name), ...outcome.neverRan.map((file) => `${file} (never ran)`)]
  const green = code === 0 && failed.length === 0
  const counts = `${outcome.passed} passed, ${outcome.failed} failed, ${outcome.skipped} skipped`
  console.log(
    `${head} ${green ? 'green' : 'red'}, ${counts}, ${seconds} s${failed.length ? `: ${failed.join('; ')}` : ''}`,
  )
  return green
}

let green = 0
for (let n = 1; n <= runs; n++) if (await run(n)) green++
console.log(`runs: ${runs}, green: ${green}`)
process.exitCode = green === runs ? 0 : 1
