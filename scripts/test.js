/**
 * `npm test`: the type check (`npm run typecheck`) beside the test run (`vitest run` with this command's
 * arguments), not before it. tsc is one process on one core for ~20 s of CPU when it has no cache, while
 * the suite's workers leave part of a 2-core machine idle as they wait on the servers and processes they
 * start; run first, it added its whole time to the command's. It runs at a lower priority, so it takes the
 * CPU the workers leave rather than slowing the longest files. Either failing fails the command; tsc's
 * errors are printed after vitest's output, whole, instead of among the test lines.
 */
import { spawn } from 'node:child_process'
import { setPriority } from 'node:os'
import { join } from 'node:path'

const root = join(import.meta.dirname, '..')
const exitCode = (child) =>
  new Promise((resolve) => child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0))))

// npm is a .cmd on Windows, which only a shell runs
const tsc = spawn('npm', ['run', '-s', 'typecheck'], { cwd: root, shell: process.platform === 'win32' })
try {
  // niceness 5, not more: beside busy processes (a CPU hog, `npm run test:stress`) it still ends before vitest
  setPriority(tsc.pid, 5)
} catch {
  // not permitted here: it competes as an equal
}
const tscOutput = []
tsc.stdout.on('data', (chunk) => tscOutput.push(chunk))
tsc.stderr.on('data', (chunk) => tscOutput.push(chunk))

const vitest = spawn(
  process.execPath,
  [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...process.argv.slice(2)],
  {
    cwd: root,
    stdio: 'inherit',
  },
)
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    for (const child of [tsc, vitest]) if (child.exitCode === null) child.kill(signal)
  })

const [tests, types] = await Promise.all([exitCode(vitest), exitCode(tsc)])
if (types !== 0) {
  process.stderr.write('\nThe type check (npm run typecheck) failed:\n')
  process.stderr.write(Buffer.concat(tscOutput))
}
process.exitCode = tests || types
