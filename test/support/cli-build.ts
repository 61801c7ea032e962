/**
 * The CLI compiled to JavaScript once per state of the sources, for the tests that start it as a process.
 * Through tsx a start costs ~4.7 s of CPU until it answers (its loader hooks see every module the service
 * imports), compiled ~2.3 s: the crash test alone starts it 23 times. `npm start`'s own way (node + tsx) keeps a
 * test of its own (test/cli/command-line.test.ts). The build (scripts/build.js --no-check, ~3 s of CPU) lands in
 * test-results/cli-build/<key>/, the key a hash of every source file's path, size and mtime, so an edit is
 * never run stale; workers that build the same key at once each build beside it and the first rename wins.
 */
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { REPO_ROOT } from './run-script.js'

const BUILDS = join(REPO_ROOT, 'test-results', 'cli-build')
/** What the build reads: the service's sources, the generated code, the compiler's settings. */
const INPUTS = ['src', 'generated', 'tsconfig.json', 'tsconfig.build.json', 'scripts/build.js']
/** A build this old serves no run still going (the suite takes minutes). */
const STALE_MS = 3_600_000

function sourceKey(): string {
  const hash = createHash('sha256')
  const visit = (path: string) => {
    const stat = statSync(join(REPO_ROOT, path))
    if (stat.isDirectory()) for (const name of readdirSync(join(REPO_ROOT, path)).sort()) visit(join(path, name))
    else hash.update(`${path}\0${stat.size}\0${stat.mtimeMs}\n`)
  }
  for (const input of INPUTS) visit(input)
  return hash.digest('hex').slice(0, 16)
}

async function build(dir: string): Promise<void> {
  const partial = `${dir}.partial-${process.pid}`
  mkdirSync(BUILDS, { recursive: true })
  rmSync(partial, { recursive: true, force: true })
  await promisify(execFile)(
    process.execPath,
    [join(REPO_ROOT, 'scripts', 'build.js'), '--out', partial, '--no-check'],
    {
      cwd: REPO_ROOT,
    },
  )
  try {
    renameSync(partial, dir)
  } catch (err) {
    // another worker's build of the same sources got there first: use that one
    rmSync(partial, { recursive: true, force: true })
    if (!existsSync(join(dir, 'src', 'cli.js'))) throw err
  }
  // earlier states' builds (and a killed run's partial one), once no run can still be starting them
  for (const name of readdirSync(BUILDS)) {
    const path = join(BUILDS, name)
    const stale =
      path !== dir && (statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) < Date.now() - STALE_MS
    if (stale) rmSync(path, { recursive: true, force: true })
  }
}

let built: { key: string; cli: Promise<string> } | undefined

/** The path of src/cli.ts compiled from the sources as they are now. */
export function compiledCli(): Promise<string> {
  const key = sourceKey()
  if (built?.key !== key) {
    const dir = join(BUILDS, key)
    const cli = join(dir, 'src', 'cli.js')
    built = { key, cli: existsSync(cli) ? Promise.resolve(cli) : build(dir).then(() => cli) }
    // a failed build is tried again by the next caller, not remembered
    built.cli.catch(() => (built = undefined))
  }
  return built.cli
}
