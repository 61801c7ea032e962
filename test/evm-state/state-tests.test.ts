/**
 * The GeneralStateTests subsets (test/evm-state/fixtures: ethereum/tests' fill at Cancun, execution-spec-tests'
 * fill of the same tests at Prague in fixtures/prague) through every execution path, one test
 * per path per group: runTx against the fixture's post-state, the eth_call paths against runTx's, and the
 * follower's re-execution on upstream-backed state (served over HTTP) against the fixture's post-state. A
 * failure fails the test unless test/support/state-tests/expected.ts classifies it; the message names each.
 * Every case runs three paths (~0.1 s of CPU a case): the suite takes every EVERY-th case of each group
 * (STATE_TESTS_EVERY, default 8, so about 2 minutes of CPU for both sets), the Prague set's sample shifted by
 * half a stride so the two sets sample different tests; `npm run test:state` runs them all.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type Case, FORKS, fixtureGroups, loadGroup } from '../support/state-tests/fixtures.js'
import { PATHS, type PathName, runGroupPath } from '../support/state-tests/paths.js'
import { PreStateUpstream } from '../support/state-tests/pre-state-upstream.js'

let upstream: PreStateUpstream
beforeAll(async () => {
  upstream = await PreStateUpstream.start()
})
/** Each group's sample, loaded once for the three paths: a case's transaction is signed once (prestate.ts txOf). */
const samples = new Map<string, Case[]>()
afterAll(async () => {
  samples.clear()
  await upstream?.close()
})

const groups = fixtureGroups()
const EVERY = Number(process.env.STATE_TESTS_EVERY ?? 8)
const sample = (group: string) => {
  let cases = samples.get(group)
  if (!cases) {
    const offset = group.startsWith('prague/') ? Math.floor(EVERY / 2) : 0
    samples.set(group, (cases = loadGroup(group).filter((_, i) => i % EVERY === offset)))
  }
  return cases
}

test.each(FORKS)('the %s set holds at least 1 500 tests of VMTests and the st* groups', (fork) => {
  const ofFork = fixtureGroups(fork)
  const tests = new Set(ofFork.flatMap((g) => loadGroup(g).map((c) => `${c.group}/${c.name}`)))
  expect(tests.size).toBeGreaterThanOrEqual(1500)
  expect(ofFork.some((g) => g.endsWith('VMTests'))).toBe(true)
})

for (const path of Object.keys(PATHS) as PathName[]) {
  describe(PATHS[path], () => {
    test.each(groups)(
      'for every case of %s',
      async (group) => {
        const figures = await runGroupPath(sample(group), path, upstream)
        expect(figures.failed.map((f) => `${f.id}: ${f.why}`).join('\n')).toBe('')
        expect(figures.passed + figures.expected.length).toBe(figures.total)
      },
      300_000,
    )
  })
}
