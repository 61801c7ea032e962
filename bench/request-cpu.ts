/**
 * Server CPU per request of each read case with no load generator competing: our service as a child
 * process, requests back to back over a few keep-alive connections (the server never saturates), CPU read
 * from /proc with the idle chain's own CPU (flashblocks, blocks) taken off. The figure to compare commits
 * by on a shared machine; bench:reads gives throughput against anvil.
 *
 *   npx tsx bench/request-cpu.ts [--n 20000] [--connections 2] [--cases chainId,callLatest] [--baseline DIR]
 *                                [--cpu-prof DIR]   (the server's profile, and window.json: the measured
 *                                                    intervals in the profile's clock, to leave out startup)
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
    'cpu-prof': { type: 'string' },
  },
})
const n = Number(args.n)
/** CLOCK_MONOTONIC in µs, the clock V8's profiles use. */
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n)

const measure = (target: Target, name: string, body: unknown, idle: number, amount: number) =>
  cpuPerRequest(target, name, body, { idle, amount, connections: Number(args.connections) })

async function run(label: string, target: Target) {
  const fx = await fixtures(target.url)
  const all = cases(fx.token, fx.txHash)
  const names = args.cases?.split(',') ?? Object.keys(all)
  for (const name of names) await measure(target, name, all[name], 0, Math.ceil(n / 4)) // JIT warm-up
  const idle = await idleCpuPerMs(target)
  const window: [number, number][] = []
  const row: string[] = []
  for (const name of names) {
    const start = monotonicUs()
    row.push(`${name} ${(await measure(target, name, all[name], idle, n)).toFixed(0)} µs`)
    window.push([start, monotonicUs()])
  }
  console.log(`${label} (idle chain ${(idle * 1000).toFixed(0)} µs CPU/s): ${row.join(', ')}`)
  if (args['cpu-prof']) writeFileSync(`${args['cpu-prof']}/window-${label}.json`, JSON.stringify(window))
}

const profArgs = args['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-interval', '50', '--cpu-prof-dir', args['cpu-prof']] : []
if (args.baseline) {
  const baseline = await startOurs([], profArgs, args.baseline)
  try {
    await run('before', baseline)
  } finally {
    await baseline.stop()
  }
}
const ours = await startOurs([], profArgs)
try {
  await run('ours', ours)
} finally {
  await ours.stop()
}
