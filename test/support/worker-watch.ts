/**
 * A set-up file of every project: a test worker that ends in the middle of the run says how (exit code or
 * signal) and in which test before it goes. vitest 4 shows such a death only as `write EPIPE` errors from
 * its pool, with no code, signal or file (vitest-dev/vitest#10964), and loses the files queued for that
 * worker (scripts/test-report.ts counts them). A crash of V8 itself (out of memory, a failed check) leaves
 * a report in test-results/node-reports instead (the workers' --report-on-fatalerror, vitest.config.ts).
 */
import { afterEach, beforeEach, expect } from 'vitest'
import { workerNote } from './worker-notes.js'

interface Watch {
  /** The file being run (set-up files run before each file, also in a worker that runs several). */
  file?: string
  /** The test being run, from its beforeEach hooks to its afterEach hooks. */
  test?: string
}

/** One per worker process: this file runs again before each file a worker runs. */
const key = Symbol.for('preconf-rpc.worker-watch')
const global = globalThis as { [key]?: Watch }
const first = global[key] === undefined
const watch: Watch = (global[key] ??= {})
const where = () => (watch.test ? ` during ${watch.test}` : watch.file ? ` in ${watch.file}` : '')

if (first) {
  // stderr is a pipe or a file here: written before the process goes
  process.once('exit', (code) => {
    if (code !== 0 || watch.test) process.stderr.write(`${workerNote(`exited with code ${code}${where()}`)}\n`)
  })
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    const onSignal = () => {
      // vitest stops a worker it no longer needs with SIGTERM, between files: only one in a test is news
      if (signal !== 'SIGTERM' || watch.test) process.stderr.write(`${workerNote(`received ${signal}${where()}`)}\n`)
      // nobody else handles it (Playwright does while a browser runs): the default, ending the process
      if (process.listenerCount(signal) === 1) {
        process.off(signal, onSignal)
        process.kill(process.pid, signal)
      }
    }
    process.on(signal, onSignal)
  }
}
watch.file = expect.getState().testPath
watch.test = undefined
beforeEach(({ task }) => {
  watch.test = task.fullName
})
afterEach(() => {
  watch.test = undefined
})
