/**
 * The interpreter against runTx's path on the state tests (test/support/state-tests/interpreter-path.ts):
 * every EVERY-th case of each group (STATE_TESTS_EVERY, default 4; 1 runs them all). Every case the
 * interpreter runs must agree; the cases it hands back are counted, not compared.
 */
import { expect, test } from 'vitest'
import { fixtureGroups, loadGroup } from '../support/state-tests/fixtures.js'
import { interpreterCase } from '../support/state-tests/interpreter-path.js'

const EVERY = Number(process.env.STATE_TESTS_EVERY ?? 4)
const sample = (group: string) => loadGroup(group).filter((_, i) => i % EVERY === 0)

test.each(fixtureGroups())(
  'the interpreter gives what runTx gives on every case of %s it runs',
  async (group) => {
    const differs: string[] = []
    let agreed = 0
    for (const c of sample(group)) {
      const verdict = await interpreterCase(c)
      if (verdict.kind === 'differs') differs.push(`${c.id}: ${verdict.why}`)
      if (verdict.kind === 'agreed') agreed++
    }
    expect(differs.join('\n')).toBe('')
    // a group the interpreter never runs would hold it to nothing
    if (sample(group).length >= 8) expect(agreed).toBeGreaterThan(0)
  },
  300_000,
)
