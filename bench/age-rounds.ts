/**
 * bench/aging.ts's comparison of an aged and a fresh instance, made steady enough to tell 10 %. The best of
 * three long rounds could not: a fresh instance's rounds of one case swung 27-91 µs on a quiet machine, the
 * first round after the live-heap measurement always the worst (the full GC shrank the young generation to
 * 1 MB and V8 grows it back under load), and the idle chain's 25-70 ms/s subtracted with stat's 10 ms ticks.
 * Here:
 * - many short rounds, each case's round run on both instances back to back, the order alternating (fresh
 *   first in even rounds, aged first in odd ones): a neighbour's burst or a drift weighs on both alike, and
 *   each round gives one aged/fresh ratio; the median of those ratios and their interquartile range is the
 *   figure, not a best round;
 * - the same unmeasured warm-up requests on both before each measured round (the case's call path hot, the
 *   young generation regrown), and with `gc` a full GC of both first (the same heap state to start from: a
 *   mark-compact owed by earlier rounds does not land in one instance's round only). The GC shrinks the
 *   young generation to 1 MB and V8 regrows it by scavenges on its helper threads: with `gc` the all-thread
 *   figures double (chainId 166 µs all threads, 76 main thread, data-dir at load 14), so read the main
 *   thread's columns then; it is off by default;
 * - the chain's timers stopped while measuring (evm_setAutomine false at a moment a block is open, so
 *   `pending` still reads its flashblock's layer over the sealed state): nothing to subtract; the idle
 *   chain's CPU is aging.ts's separate row;
 * - CPU from /proc/PID/task/TID/schedstat (ns): all threads, and the main thread alone (the requests' own
 *   work and the GC pauses they cause, not V8's helper threads or LevelDB's compactions).
 */
import { type Target, rpc, sleep } from './lib.js'
import { type Send, withInspector } from './live-heap.js'
import { requests, threadCpuNs } from './read-cases.js'

/** inspectPort: V8's inspector, for `gc` (ours; a peer such as anvil has none). */
export type Measured = { target: Target; inspectPort?: number; all: Record<string, unknown> }
type Options = { rounds: number; n: number; warm: number; gc: boolean; connections: number }
/** Per case, per round: µs per request of all threads and of the main thread. */
export type Rounds = Record<'fresh' | 'aged', Map<string, { all: number[]; main: number[] }>>

/** Stops the chain's timers with a block open (its first flashblock published), so `pending` is not `latest`. */
export async function holdChain(url: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    await rpc(url, 'evm_setAutomine', [false])
    const pending = await rpc<{ number: string }>(url, 'eth_getBlockByNumber', ['pending', false])
    if (BigInt(pending.number) > BigInt(await rpc(url, 'eth_blockNumber'))) return
    if (attempt === 100) throw new Error(`no block opened at ${url} in 100 tries`)
    await rpc(url, 'evm_setAutomine', [true])
    await sleep(30 + attempt * 7)
  }
}

export const releaseChain = (url: string) => rpc(url, 'evm_setAutomine', [true])

/** One measured round of a case: µs per request, all threads and the main thread, after the warm-up. */
export async function roundOf(
  { target, all }: Measured,
  name: string,
  { n, warm, connections }: Pick<Options, 'n' | 'warm' | 'connections'>,
  gc?: Send,
): Promise<{ all: number; main: number }> {
  if (gc) await gc('HeapProfiler.collectGarbage')
  if (warm) await requests(target, name, all[name], { amount: warm, connections })
  const before = threadCpuNs(target.pid!)
  await requests(target, name, all[name], { amount: n, connections })
  const after = threadCpuNs(target.pid!)
  return { all: (after.all - before.all) / 1000 / n, main: (after.main - before.main) / 1000 / n }
}

/** `options.rounds` alternating rounds of every case on both instances, their chains held still meanwhile. */
export async function pairedRounds(
  instances: Record<'fresh' | 'aged', Measured>,
  names: string[],
  options: Options,
): Promise<Rounds> {
  const rounds: Rounds = { fresh: new Map(), aged: new Map() }
  const run = async (gc: Record<'fresh' | 'aged', Send | undefined>) => {
    for (let r = 0; r < options.rounds; r++)
      for (const name of names)
        for (const label of r % 2 ? (['aged', 'fresh'] as const) : (['fresh', 'aged'] as const)) {
          const us = await roundOf(instances[label], name, options, gc[label])
          const of = rounds[label].get(name) ?? { all: [], main: [] }
          of.all.push(us.all)
          of.main.push(us.main)
          rounds[label].set(name, of)
        }
  }
  for (const { target } of Object.values(instances)) await holdChain(target.url)
  try {
    if (!options.gc) await run({ fresh: undefined, aged: undefined })
    else {
      // one inspector session per instance for all rounds: opening one per GC would cost more than the GC
      const { fresh, aged } = instances
      await withInspector(fresh.target.pid!, fresh.inspectPort!, (f) =>
        withInspector(aged.target.pid!, aged.inspectPort!, (a) => run({ fresh: f, aged: a })),
      )
    }
  } finally {
    for (const { target } of Object.values(instances)) await releaseChain(target.url)
  }
  return rounds
}

/** The median and quartiles of `values` (linear interpolation between the nearest ranks). */
export function quartiles(values: number[]): { q1: number; median: number; q3: number } {
  const sorted = [...values].sort((a, b) => a - b)
  const at = (p: number) => {
    const i = p * (sorted.length - 1)
    const lo = Math.floor(i)
    return sorted[lo]! + (sorted[Math.min(lo + 1, sorted.length - 1)]! - sorted[lo]!) * (i - lo)
  }
  return { q1: at(0.25), median: at(0.5), q3: at(0.75) }
}

/** Rows of a markdown table: per case, each instance's median µs [IQR] and the median aged/fresh ratio [IQR]. */
export function printRounds(rounds: Rounds, names: string[]): void {
  const fmt = (q: ReturnType<typeof quartiles>, digits: number) =>
    `${q.median.toFixed(digits)} [${q.q1.toFixed(digits)}-${q.q3.toFixed(digits)}]`
  console.log(
    '| case | fresh µs, median [IQR] | aged µs | **aged/fresh**, median of round pairs [IQR] | main thread: fresh µs | aged µs | aged/fresh |\n|---|---|---|---|---|---|---|',
  )
  for (const name of names) {
    const f = rounds.fresh.get(name)!
    const a = rounds.aged.get(name)!
    const ratio = (of: 'all' | 'main') => quartiles(a[of].map((us, i) => us / f[of][i]!))
    console.log(
      `| ${name} | ${fmt(quartiles(f.all), 1)} | ${fmt(quartiles(a.all), 1)} | **${fmt(ratio('all'), 2)}** | ` +
        `${fmt(quartiles(f.main), 1)} | ${fmt(quartiles(a.main), 1)} | ${fmt(ratio('main'), 2)} |`,
    )
  }
}
