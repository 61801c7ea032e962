/**
 * Server CPU per request of each read case with no load generator competing: our service as a child
 * process, requests back to back over a few keep-alive connections (the server never saturates), CPU read
 * from /proc with the idle chain's own CPU (flashblocks, blocks) taken off. The figure to compare commits
 * by on a shared machine; bench:reads gives throughput against anvil.
 *
 *   npx tsx bench/request-cpu.ts [--n 20000] [--connections 2] [--cases chainId,callLatest] [--baseline DIR]
 *                                [--rounds 1] [--cpu-prof DIR]
 *
 * `--rounds R`: both servers run side by side and each case is measured R times, alternating the targets, with
 * n / R requests a time; the least CPU of each is reported (on a busy machine the quietest round is the truest).
 * `--cpu-prof DIR`: the server's profile, and window.json: the measured intervals in the profile's clock, to
 * leave out startup.
 */
import { writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { cases, cpuPerRequest, fixtures, idleCpuPerMs } from './read-cases.js'
import { startOurs, type Target } from './lib.js'

const { values: args } = parseArgs({
  options: {
    n: { type: 'string', default: '20000' },
    connections: { type: 'string', default: '2' },
    cases: { type: 'string' },
    baseline: { type: 'string' },
    rounds: { type: 'string', default: '1' },
    'cpu-prof': { type: 'string' },
  },
})
const n = Number(args.n)
const rounds = Number(args.rounds)
/** CLOCK_MONOTONIC in µs, the clock V8's profiles use. */
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n)

const measure = (target: Target, name: string, body: unknown, idle: number, amount: number) =>
  cpuPerRequest(target, name, body, { idle, amount, connections: Number(args.connections) })

/** A started server with its fixtures, its cases warmed up and its idle CPU known. */
async function prepare(label: string, target: Target) {
  const fx = await fixtures(target.url)
  const all = cases(fx.token, fx.txHash)
  const names = args.cases?.split(',') ?? Object.keys(all)
  for (const name of names) await measure(target, name, all[name], 0, Math.ceil(n / 4)) // JIT warm-up
  const idle = await idleCpuPerMs(target)
  return { label, target, all, names, idle, best: new Map<string, number>(), window: [] as [number, number][] }
}

const profArgs = args['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-interval', '50', '--cpu-prof-dir', args['cpu-prof']] : []
const targets: Target[] = []
try {
  if (args.baseline) targets.push(await startOurs([], profArgs, args.baseline))
  targets.push(await startOurs([], profArgs))
  const runs = []
  for (const [i, target] of targets.entries())
    runs.push(await prepare(i === targets.length - 1 ? 'ours' : 'before', target))
  for (let round = 0; round < rounds; round++)
    for (const name of runs[0]!.names)
      for (const run of round % 2 ? [...runs].reverse() : runs) {
        const start = monotonicUs()
        const cpu = await measure(run.target, name, run.all[name], run.idle, Math.ceil(n / rounds))
        run.window.push([start, monotonicUs()])
        run.best.set(name, Math.min(run.best.get(name) ?? Number.POSITIVE_INFINITY, cpu))
      }
  for (const run of runs) {
    const row = run.names.map((name) => `${name} ${run.best.get(name)!.toFixed(0)} µs`)
    console.log(`${run.label} (idle chain ${(run.idle * 1000).toFixed(0)} µs CPU/s): ${row.join(', ')}`)
    if (args['cpu-prof']) writeFileSync(`${args['cpu-prof']}/window-${run.label}.json`, JSON.stringify(run.window))
  }
} finally {
  for (const target of targets) await target.stop()
}
