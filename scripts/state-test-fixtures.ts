/**
 * `npx tsx scripts/state-test-fixtures.ts <ethereum/tests git dir> [commit]`: writes the state-test subset
 * test/evm-state/ runs (test/evm-state/fixtures/<group>.json.br) from a clone of ethereum/tests. Per group
 * under GeneralStateTests (VMTests and the st* groups): each test's cases at FORK only, at most
 * MAX_CASES_PER_TEST of them spread over its index matrix (CHOSEN_DATA picks by data index), and no txbytes (the harness signs the transaction from its fields). Groups and tests
 * in EXCLUDED (test/support/state-tests/excluded.ts) are left out for the reason given there.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { brotliCompressSync, constants } from 'node:zlib'
import { excludedReason } from '../test/support/state-tests/excluded.js'
import { FIXTURE_DIR, FORK, type StateTest, type StateTestCase } from '../test/support/state-tests/fixtures.js'

const MAX_CASES_PER_TEST = 3
/**
 * Tests whose cases are chosen by data index instead: CreateOOGafterMaxCodesize's data 1 and 2 are divergences
 * issue 25 names; its data 3 to 5 make 250 contracts of the maximum code size each (seconds of CPU).
 */
const CHOSEN_DATA: Record<string, number[]> = { 'stCreateTest/CreateOOGafterMaxCodesize': [0, 1, 2] }

const [gitDir, commit = 'HEAD'] = process.argv.slice(2)
if (!gitDir) {
  process.stderr.write('usage: npx tsx scripts/state-test-fixtures.ts <ethereum/tests git dir> [commit]\n')
  process.exit(2)
}
const git = (...args: string[]) => execFileSync('git', ['-C', gitDir, ...args], { maxBuffer: 1 << 28 })
const resolved = git('rev-parse', commit).toString().trim()

type Filled = StateTest & { post: Record<string, (StateTestCase & { txbytes?: string })[]>; _info?: unknown }

/** Up to `n` cases: the first, the last and evenly between. */
function spread<T>(items: T[], n: number): T[] {
  if (items.length <= n) return items
  return Array.from({ length: n }, (_, i) => items[Math.round((i * (items.length - 1)) / (n - 1))])
}

/** The test with only `cases` (indexes as the fixture numbers them, so case names match ethereum/tests'). */
function strip(test: Filled, cases: StateTestCase[]): StateTest {
  const post = cases.map(({ indexes, hash, logs, expectException }) => ({
    indexes,
    hash,
    logs,
    ...(expectException ? { expectException } : {}),
  }))
  return { env: test.env, pre: test.pre, transaction: test.transaction, post }
}

const groups = git('ls-tree', '--name-only', `${resolved}:GeneralStateTests`)
  .toString()
  .split('\n')
  .filter((g) => g === 'VMTests' || g.startsWith('st'))
mkdirSync(FIXTURE_DIR, { recursive: true })
let tests = 0
let cases = 0
for (const group of groups) {
  if (excludedReason(group)) continue
  const files = git('ls-tree', '-r', '--name-only', resolved, `GeneralStateTests/${group}/`)
    .toString()
    .split('\n')
    .filter((f) => f.endsWith('.json'))
  const out: Record<string, StateTest> = {}
  for (const file of files) {
    const filled = JSON.parse(git('show', `${resolved}:${file}`).toString()) as Record<string, Filled>
    for (const [name, test] of Object.entries(filled)) {
      const chosen = test.post[FORK]
      if (!chosen?.length || excludedReason(`${group}/${name}`)) continue
      const data = CHOSEN_DATA[`${group}/${name}`]
      const kept = data ? chosen.filter((c) => data.includes(c.indexes.data)) : spread(chosen, MAX_CASES_PER_TEST)
      out[name] = strip(test, kept)
      tests++
      cases += out[name].post.length
    }
  }
  if (Object.keys(out).length === 0) continue
  const json = Buffer.from(JSON.stringify(out))
  writeFileSync(
    new URL(`${group}.json.br`, FIXTURE_DIR),
    brotliCompressSync(json, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: json.length },
    }),
  )
}
process.stdout.write(`ethereum/tests ${resolved}: ${tests} tests, ${cases} cases at ${FORK}\n`)
