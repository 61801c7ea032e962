/**
 * `npm run test:state [-- --group G] [--fork Cancun|Prague] [--path runTx|call|reexec|frames|trace] [--verbose]`: every
 * state-test case of test/evm-state/fixtures (the Cancun and the Prague set, or `--fork`'s) through each
 * path, and per path the figure passed / total, the expected failures by reason and any unexplained failure
 * by name. Exits 1 on an unexplained failure. The vitest suite
 * (test/evm-state/) runs the same; this prints the figures the README's conformance section quotes.
 */
import { execFileSync } from 'node:child_process'
import { parseArgs } from 'node:util'
import { type Fork, fixtureGroups, loadGroup } from '../test/support/state-tests/fixtures.js'

const { values } = parseArgs({
  options: {
    group: { type: 'string' },
    path: { type: 'string' },
    verbose: { type: 'boolean', default: false },
    unpatched: { type: 'boolean', default: false },
    fork: { type: 'string' },
  },
})
const groupsRun = () => (values.group ? [values.group] : fixtureGroups(values.fork as Fork | undefined))
if (values.unpatched) {
  // runTx with none of our patches loaded (this process imports no module that installs one): the reference
  const { matchesFixture, runTxCase } = await import('../test/support/state-tests/run-tx.js')
  const failing: string[] = []
  let total = 0
  for (const group of groupsRun())
    for (const c of loadGroup(group)) {
      total++
      const why = await runTxCase(c).then(
        (o) => matchesFixture(c, o),
        (err: Error) => `threw ${err.message}`,
      )
      if (why) failing.push(c.id)
    }
  process.stdout.write(JSON.stringify({ total, failing }))
  process.exit(0)
}
// the patched paths run as the service runs: the patches installed as at its start-up
const { installEvmPatches } = await import('../src/evm/patches/install.js')
await installEvmPatches()
const { PATHS, runGroupPath } = await import('../test/support/state-tests/paths.js')
const { PreStateUpstream } = await import('../test/support/state-tests/pre-state-upstream.js')
const { interpreterStats } = await import('../src/evm/interpreter/stats.js')
type PathName = keyof typeof PATHS
type PathFigures = Awaited<ReturnType<typeof runGroupPath>>
const paths = (values.path ? [values.path] : Object.keys(PATHS)) as PathName[]
const groups = groupsRun()
const upstream = await PreStateUpstream.start()
const totals = new Map<PathName, PathFigures>(
  paths.map((p) => [p, { passed: 0, total: 0, fastPath: 0, expected: [], failed: [] }]),
)
const started = process.cpuUsage()
try {
  for (const group of groups) {
    const cases = loadGroup(group)
    for (const path of paths) {
      const figures = await runGroupPath(cases, path, upstream)
      const total = totals.get(path)!
      total.passed += figures.passed
      total.total += figures.total
      total.fastPath += figures.fastPath
      total.expected.push(...figures.expected)
      total.failed.push(...figures.failed)
      if (values.verbose) process.stdout.write(`${group} ${path}: ${figures.passed}/${figures.total}\n`)
    }
  }
} finally {
  await upstream.close()
}
const cpu = process.cpuUsage(started)
const group = [...(values.group ? ['--group', values.group] : []), ...(values.fork ? ['--fork', values.fork] : [])]
const reference = JSON.parse(
  execFileSync(process.execPath, [...process.execArgv, process.argv[1], '--unpatched', ...group], {
    maxBuffer: 1 << 24,
  }).toString(),
) as { total: number; failing: string[] }
process.stdout.write(
  `unpatched @ethereumjs (runTx, no patch loaded): passed ${reference.total - reference.failing.length} / ${reference.total}` +
    `${reference.failing.length ? `; fails ${reference.failing.join(', ')}` : ''}\n`,
)
for (const [path, f] of totals) {
  const fast =
    path === 'call'
      ? ` (the fast path ran ${f.fastPath})`
      : path === 'frames' || path === 'trace'
        ? ` (the interpreter ran ${f.fastPath} outermost frames)`
        : path === 'reexec'
          ? ` (${upstream.asked('eth_getProof')} eth_getProof calls, for EIP-7610's creation check)`
          : ''
  process.stdout.write(`\n${path}: ${PATHS[path]}\n  passed ${f.passed} / ${f.total}${fast}\n`)
  const byReason = new Map<string, string[]>()
  for (const e of f.expected) byReason.set(e.reason, [...(byReason.get(e.reason) ?? []), e.id])
  for (const [reason, ids] of byReason)
    process.stdout.write(`  expected (${ids.length}): ${reason}\n    ${ids.join(', ')}\n`)
  for (const e of f.failed) process.stdout.write(`  FAILED ${e.id}: ${e.why}\n`)
  if (path === 'frames' || path === 'trace')
    for (const [reason, n] of path === 'frames' ? interpreterStats.simulateFallbacks : interpreterStats.traceFallbacks)
      process.stdout.write(`  handed to @ethereumjs (${n}): ${reason}\n`)
  if (values.verbose) for (const e of f.expected) process.stdout.write(`    ${e.id}: ${e.why}\n`)
}
process.stdout.write(`\nCPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s\n`)
process.exitCode = [...totals.values()].some((f) => f.failed.length > 0) ? 1 : 0
