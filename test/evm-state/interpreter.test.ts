/**
 * The interpreter against runTx's path on the state tests (test/support/state-tests/interpreter-path.ts):
 * every EVERY-th case of each group (STATE_TESTS_EVERY, default 4; 1 runs them all). Every case the
 * interpreter runs must agree; the cases it hands back are counted, not compared, and must stay the fewer.
 */
import { expect, test } from 'vitest'
import { fixtureGroups, loadGroup } from '../support/state-tests/fixtures.js'
import { interpreterCase, NO_CALL } from '../support/state-tests/interpreter-path.js'

const EVERY = Number(process.env.STATE_TESTS_EVERY ?? 4)
const sample = (group: string) => loadGroup(group).filter((_, i) => i % EVERY === 0)
let ran = 0
let handedBack = 0
let paidRan = 0

test.each(fixtureGroups())(
  'the interpreter gives what runTx gives on every case of %s it runs',
  async (group) => {
    const differs: string[] = []
    for (const c of sample(group)) {
      const verdict = await interpreterCase(c)
      if (verdict.kind === 'differs') differs.push(`${c.id}: ${verdict.why}`)
      if (verdict.kind === 'agreed') ran++
      if (verdict.kind === 'not run' && verdict.reason !== NO_CALL) handedBack++
    }
    expect(differs.join('\n')).toBe('')
  },
  300_000,
)

test.each(fixtureGroups())(
  'the interpreter gives what runTx gives on every case of %s it runs with the transaction’s value and fee fields',
  async (group) => {
    const differs: string[] = []
    for (const c of sample(group)) {
      const verdict = await interpreterCase(c, true)
      if (verdict.kind === 'differs') differs.push(`${c.id}: ${verdict.why}`)
      if (verdict.kind === 'agreed') paidRan++
    }
    expect(differs.join('\n')).toBe('')
  },
  300_000,
)

// after every group (vitest runs a file's tests in order): most eth_calls ran on the interpreter, so the
// comparison above held it to something (the rest are creations, calls with value and SELFDESTRUCTs)
test('the interpreter ran most of the sampled eth_calls, and most of them again with value and fees', () => {
  expect(ran).toBeGreaterThan(0.6 * (ran + handedBack))
  expect(paidRan).toBeGreaterThan(0.6 * ran)
})
