/**
 * `npx tsx scripts/state-test-fixtures.ts <git dir> [commit] [--fork Cancun|Prague]`: writes the state-test
 * subset test/evm-state/ runs (<fork's fixture dir>/<group>.json.br) from a git directory of filled
 * GeneralStateTests, in either layout:
 * - ethereum/tests: GeneralStateTests/<group>/<file>.json, one entry per test, `post` keyed by fork;
 * - execution-spec-tests' fill (a release's fixtures, e.g. erigontech/eest-fixtures):
 *   state_tests/static/state_tests/<group>/<file>.json, one entry per test, fork and index split, named
 *   `<filler>::<test>[fork_<Fork>-state_test-<split>]`.
 * Per group (VMTests and the st* groups): each test's cases at the fork, at most MAX_CASES_PER_TEST spread
 * over its index matrix or splits (CHOSEN_DATA picks by data index), without txbytes or post-states (the
 * harness signs the transaction from its fields and compares roots). Groups and tests in EXCLUDED
 * (test/support/state-tests/excluded.ts) are left out for the reason given there; files the git directory
 * lacks (a snapshot without its large or Git LFS files) are named.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { brotliCompressSync, constants } from 'node:zlib'
import { excludedReason } from '../test/support/state-tests/excluded.js'
import {
  FORKS,
  type Fork,
  fixtureDir,
  type StateTest,
  type StateTestCase,
} from '../test/support/state-tests/fixtures.js'

const MAX_CASES_PER_TEST = 3
/**
 * Tests whose cases are chosen by data index instead: CreateOOGafterMaxCodesize's data 1 and 2 are divergences
 * issue 25 names; its data 3 to 5 make 250 contracts of the maximum code size each (seconds of CPU).
 */
const CHOSEN_DATA: Record<string, number[]> = { 'stCreateTest/CreateOOGafterMaxCodesize': [0, 1, 2] }
const EEST_ROOT = 'state_tests/static/state_tests'
/** An execution-spec-tests entry's name: the test, the fork and the split (`d0-g1`, or empty). */
const EEST_NAME = /::(.+)\[fork_(\w+)-state_test-?(.*)\]$/

const { values, positionals } = parseArgs({ allowPositionals: true, options: { fork: { type: 'string' } } })
const [gitDir, commit = 'HEAD'] = positionals
const fork = (values.fork ?? 'Cancun') as Fork
if (!gitDir || !FORKS.includes(fork)) {
  process.stderr.write(`usage: npx tsx scripts/state-test-fixtures.ts <git dir> [commit] [--fork ${FORKS.join('|')}]\n`)
  process.exit(2)
}
const git = (...args: string[]) =>
  execFileSync('git', ['-C', gitDir, ...args], { maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] })
const resolved = git('rev-parse', commit).toString().trim()
const ls = (path?: string) =>
  git('ls-tree', '--name-only', path ? `${resolved}:${path}` : resolved)
    .toString()
    .split('\n')
    .filter(Boolean)
const eest = ls().includes('state_tests')
const root = eest ? EEST_ROOT : 'GeneralStateTests'

type Filled = StateTest & { post: Record<string, (StateTestCase & { txbytes?: string })[]>; _info?: unknown }
/** One test as the subset keeps it: its name and its entries (one per split in execution-spec-tests' layout). */
type Entry = { name: string; test: Filled }

/** Up to `n` items: the first, the last and evenly between. */
function spread<T>(items: T[], n: number): T[] {
  if (items.length <= n) return items
  return Array.from({ length: n }, (_, i) => items[Math.round((i * (items.length - 1)) / (n - 1))])
}

/** The test with only `cases` (indexes as the fixture numbers them, so case names match the source's). */
function strip(test: Filled, cases: StateTestCase[]): StateTest {
  const post = cases.map(({ indexes, hash, logs, expectException }) => ({
    indexes,
    hash,
    logs,
    ...(expectException ? { expectException } : {}),
  }))
  return { env: test.env, pre: test.pre, transaction: test.transaction, post }
}

/** The file's tests at the fork, grouped by test name (a split's entries under their test). */
function testsOf(file: Record<string, Filled>): Map<string, Entry[]> {
  const out = new Map<string, Entry[]>()
  for (const [key, test] of Object.entries(file)) {
    const match = eest ? EEST_NAME.exec(key) : undefined
    if (eest && match?.[2] !== fork) continue
    const name = match ? match[1] : key
    const entry = { name: match?.[3] ? `${name} ${match[3].replace(/^-/, '')}` : name, test }
    out.set(name, [...(out.get(name) ?? []), entry])
  }
  return out
}

const groups = ls(root).filter((g) => g === 'VMTests' || g.startsWith('st'))
const outDir = fixtureDir(fork)
mkdirSync(outDir, { recursive: true })
const missing: string[] = []
let tests = 0
let cases = 0
for (const group of groups) {
  if (excludedReason(group)) continue
  const files = git('ls-tree', '-r', '--name-only', resolved, `${root}/${group}/`)
    .toString()
    .split('\n')
    .filter((f) => f.endsWith('.json'))
  const out: Record<string, StateTest> = {}
  for (const file of files) {
    let text: string
    try {
      text = git('show', `${resolved}:${file}`).toString()
    } catch {
      missing.push(file)
      continue
    }
    if (text.startsWith('version https://git-lfs')) {
      missing.push(file)
      continue
    }
    for (const [name, entries] of testsOf(JSON.parse(text) as Record<string, Filled>)) {
      if (excludedReason(`${group}/${name}`)) continue
      const data = CHOSEN_DATA[`${group}/${name}`]
      const all = entries.flatMap((e) => (e.test.post[fork] ?? []).map((c) => ({ entry: e, c })))
      const kept = data ? all.filter(({ c }) => data.includes(c.indexes.data)) : spread(all, MAX_CASES_PER_TEST)
      if (kept.length === 0) continue
      for (const entry of new Set(kept.map((k) => k.entry)))
        out[entry.name] = strip(
          entry.test,
          kept.filter((k) => k.entry === entry).map((k) => k.c),
        )
      tests++
      cases += kept.length
    }
  }
  if (Object.keys(out).length === 0) continue
  const json = Buffer.from(JSON.stringify(out))
  writeFileSync(
    new URL(`${group}.json.br`, outDir),
    brotliCompressSync(json, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: json.length },
    }),
  )
}
process.stdout.write(`${gitDir} ${resolved}: ${tests} tests, ${cases} cases at ${fork}\n`)
if (missing.length) process.stdout.write(`not in the git directory (${missing.length}):\n  ${missing.join('\n  ')}\n`)
