/**
 * Counts, inside a service process, the account reads the state snapshot answers and those that fall to a trie
 * walk, and why the snapshot could not answer (its base not made yet, or a root it holds no table for), with
 * its makes, seals and moves: a preload for any bench that starts the service, e.g.
 *
 *   npx tsx bench/aging.ts --modes memory --cases balanceDistinct \
 *     --node="--import tsx --import ./bench/snapshot-counts.ts"
 *
 * Each process prints its counts to stderr every 3 s while they change, as `[snapshot-counts PID] {...}`
 * (counts, not timings: they do not move with the machine's load). age14b used it to ask whether an aged
 * instance's reads of new addresses miss the snapshot more often than a fresh one's (they do not).
 */
import { RootReader } from '../src/evm/state-cache.js'
import { SnapshotReads, StateSnapshot } from '../src/evm/state-snapshot.js'

type Methods = Record<string, (...args: unknown[]) => unknown>
const counts: Record<string, number> = {}
const count = (name: string) => {
  counts[name] = (counts[name] ?? 0) + 1
}

/** Wraps `name` on `proto` (private methods too: they are ordinary properties at run time). */
function wrap(proto: object, name: string, after: (result: unknown, self: Record<string, unknown>) => void): void {
  const methods = proto as Methods
  const original = methods[name]!
  methods[name] = function (this: Record<string, unknown>, ...args: unknown[]) {
    const result = original.apply(this, args)
    after(result, this)
    return result
  }
}

for (const name of ['make', 'sealed', 'flashblock', 'advance']) wrap(StateSnapshot.prototype, name, () => count(name))
wrap(StateSnapshot.prototype, 'tablesAt', (result, snapshot) => {
  if (result !== undefined) return
  count(snapshot.root === undefined ? 'no tables: base not made' : 'no tables: a root it does not hold')
})
wrap(SnapshotReads.prototype, 'account', (result) =>
  count(result === undefined ? 'account: to the trie' : result === null ? 'account: absent' : 'account: present'),
)
wrap(RootReader.prototype, 'readAccount', () => count('readAccount'))
wrap(RootReader.prototype, 'fromTrie', () => count('account read from the trie'))

let printed = ''
setInterval(() => {
  const now = JSON.stringify(counts)
  if (now !== printed) process.stderr.write(`[snapshot-counts ${process.pid}] ${now}\n`)
  printed = now
}, 3000).unref()
