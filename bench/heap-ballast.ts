/**
 * Whether a larger heap alone makes a request dearer: two fresh instances, the second holding `--mb` of
 * pointer-rich ballast (a Map of hex keys to small objects and byte arrays, as an aged chain's tries and
 * indexes are) from a preloaded file and run with Node's `--node` flags (e.g. `--min-semi-space-size=16`: the
 * young generation an aged instance's V8 grew under the ageing's allocation rate), rounds alternating; server
 * CPU per request (read-cases.ts).
 *
 *   npx tsx bench/heap-ballast.ts [--mb 100] [--node="..."] [--n 5000] [--rounds 5] [--cases chainId]
 */
import { writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { startOurs } from './lib.js'
import { cases, cpuPerRequest, fixtures, idleCpuPerMs } from './read-cases.js'
import { liveHeap } from './live-heap.js'
import { freePort } from './lib.js'

const { values: args } = parseArgs({
  options: {
    mb: { type: 'string', default: '100' },
    node: { type: 'string', default: '' },
    n: { type: 'string', default: '5000' },
    rounds: { type: 'string', default: '5' },
    cases: { type: 'string', default: 'chainId' },
  },
})
const preload = join(tmpdir(), 'preconf-heap-ballast.cjs')
writeFileSync(
  preload,
  `const map = new Map()
for (let i = 0; i < Number(process.env.BALLAST_MB || 0) * 2000; i++)
  map.set(i.toString(16).padStart(64, '0'), { bytes: new Uint8Array(100), n: i, next: null })
globalThis.__ballast = map
`,
)
const load = () => loadavg()[0]!.toFixed(1)

async function start(mb: number, node: string[] = []) {
  process.env.BALLAST_MB = String(mb)
  const inspectPort = await freePort()
  const target = await startOurs([], [...node, '--require', preload, `--inspect-port=127.0.0.1:${inspectPort}`])
  const fx = await fixtures(target.url)
  return { mb, target, inspectPort, all: cases(fx.token, fx.txHash), idle: 0 }
}

const plain = await start(0)
const heavy = await start(Number(args.mb), args.node ? args.node.split(' ') : [])
try {
  const names = args.cases.split(',')
  const measure = (i: typeof plain, name: string) =>
    cpuPerRequest(i.target, name, i.all[name], { idle: i.idle, amount: Number(args.n), connections: 2 })
  for (const i of [plain, heavy]) for (const name of names) await measure(i, name)
  for (const i of [plain, heavy]) i.idle = await idleCpuPerMs(i.target)
  for (const i of [plain, heavy]) {
    const { after } = await liveHeap(i.target.pid!, i.inspectPort)
    console.log(`ballast ${i.mb} MB: live heap ${after.heapUsed} MB, idle ${(i.idle * 1000).toFixed(1)} ms/s`)
  }
  const rounds = new Map<string, number[]>()
  for (let r = 0; r < Number(args.rounds); r++)
    for (const i of [plain, heavy])
      for (const name of names) {
        const key = `${name} ${i.mb} MB${i === heavy && args.node ? ` ${args.node}` : ''}`
        rounds.set(key, [...(rounds.get(key) ?? []), await measure(i, name)])
      }
  for (const [key, us] of rounds)
    console.log(`${key}: best ${Math.min(...us).toFixed(0)} µs (${us.map((u) => u.toFixed(0)).join('/')})`)
  console.log(`load ${load()}`)
} finally {
  await plain.target.stop()
  await heavy.target.stop()
}
