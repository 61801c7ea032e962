/**
 * `npm run test:state [-- --group G] [--path runTx|call|reexec] [--verbose]`: every state-test case of
 * test/evm-state/fixtures through each path, and per path the figure passed / total, the expected failures by
 * reason and any unexplained failure by name. Exits 1 on an unexplained failure. The vitest suite
 * (test/evm-state/) runs the same; this prints the figures the README's conformance section quotes.
 */
import { parseArgs } from 'node:util'
import { fixtureGroups, loadGroup } from '../test/support/state-tests/fixtures.js'
import { PATHS, type PathFigures, type PathName, runGroupPath } from '../test/support/state-tests/paths.js'
import { PreStateUpstream } from '../test/support/state-tests/pre-state-upstream.js'

const { values } = parseArgs({
  options: { group: { type: 'string' }, path: { type: 'string' }, verbose: { type: 'boolean', default: false } },
})
const paths = (values.path ? [values.path] : Object.keys(PATHS)) as PathName[]
const groups = values.group ? [values.group] : fixtureGroups()
const upstream = await PreStateUpstream.start()
const totals = new Map<PathName, PathFigures>(paths.map((p) => [p, { passed: 0, total: 0, expected: [], failed: [] }]))
const started = process.cpuUsage()
try {
  for (const group of groups) {
    const cases = loadGroup(group)
    for (const path of paths) {
      const figures = await runGroupPath(cases, path, upstream)
      const total = totals.get(path)!
      total.passed += figures.passed
      total.total += figures.total
      total.expected.push(...figures.expected)
      total.failed.push(...figures.failed)
      if (values.verbose) process.stdout.write(`${group} ${path}: ${figures.passed}/${figures.total}\n`)
    }
  }
} finally {
  await upstream.close()
}
const cpu = process.cpuUsage(started)
for (const [path, f] of totals) {
  process.stdout.write(`\n${path}: ${PATHS[path]}\n  passed ${f.passed} / ${f.total}\n`)
  const byReason = new Map<string, string[]>()
  for (const e of f.expected) byReason.set(e.reason, [...(byReason.get(e.reason) ?? []), e.id])
  for (const [reason, ids] of byReason) process.stdout.write(`  expected (${ids.length}): ${reason}\n    ${ids.join(', ')}\n`)
  for (const e of f.failed) process.stdout.write(`  FAILED ${e.id}: ${e.why}\n`)
  if (values.verbose) for (const e of f.expected) process.stdout.write(`    ${e.id}: ${e.why}\n`)
}
process.stdout.write(`\nCPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s\n`)
process.exitCode = [...totals.values()].some((f) => f.failed.length > 0) ? 1 : 0
