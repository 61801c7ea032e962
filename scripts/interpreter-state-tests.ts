/**
 * `npm run test:state:interpreter [-- --group G] [--verbose] [--paying]`: every state-test case through the
 * interpreter and runTx's path (test/support/state-tests/interpreter-path.ts), and the figures: cases agreed,
 * cases that differ (by name), cases not run by reason, the fallbacks by reason. Exits 1 when a case differs.
 * `--paying`: each call with its transaction's value and fee fields.
 */
import { parseArgs } from 'node:util'

const { values } = parseArgs({
  options: {
    group: { type: 'string' },
    verbose: { type: 'boolean', default: false },
    paying: { type: 'boolean', default: false },
  },
})
process.env.PRECONF_EVM_INTERPRETER = '1'
const { installEvmPatches } = await import('../src/evm/patches/install.js')
await installEvmPatches()
const { fixtureGroups, loadGroup } = await import('../test/support/state-tests/fixtures.js')
const { interpreterCase } = await import('../test/support/state-tests/interpreter-path.js')
const { interpreterStats } = await import('../src/evm/interpreter/stats.js')

let agreed = 0
const differs: string[] = []
const notRun = new Map<string, number>()
const started = process.cpuUsage()
for (const group of values.group ? [values.group] : fixtureGroups()) {
  let groupAgreed = 0
  for (const c of loadGroup(group)) {
    const verdict = await interpreterCase(c, values.paying).catch((err: Error) => ({
      kind: 'differs' as const,
      why: `threw ${err.message}`,
    }))
    if (verdict.kind === 'agreed') groupAgreed++
    else if (verdict.kind === 'differs') differs.push(`${c.id}: ${verdict.why}`)
    else notRun.set(verdict.reason, (notRun.get(verdict.reason) ?? 0) + 1)
  }
  agreed += groupAgreed
  if (values.verbose) process.stdout.write(`${group}: ${groupAgreed} agreed\n`)
}
const cpu = process.cpuUsage(started)
process.stdout.write(`interpreter vs runTx: ${agreed} agreed, ${differs.length} differ\n`)
for (const line of differs) process.stdout.write(`  DIFFERS ${line}\n`)
for (const [reason, n] of notRun) process.stdout.write(`  not run (${n}): ${reason}\n`)
for (const [reason, n] of interpreterStats.fallbacks) process.stdout.write(`  fallback (${n}): ${reason}\n`)
process.stdout.write(`CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s\n`)
process.exitCode = differs.length > 0 ? 1 : 0
