/**
 * Self time of a V8 .cpuprofile by function (and the pseudo-frames: garbage collector, program, idle), the
 * top ones; given two profiles (a fresh and an aged instance's, bench/aging.ts --profile), side by side with
 * the difference, largest first: where the second one spends what the first does not.
 *
 *   npx tsx bench/profile-top.ts A.cpuprofile [B.cpuprofile] [--top 30] [--samples]
 *
 * A sample's time is the gap to the next one, wall time: on a loaded machine a thread descheduled for 20 ms
 * charges those 20 ms to whatever it ran last (an aged instance's idle profile at load 14 gave trie-diff's
 * `diff` 98 ms of "self time" from 6 samples). `--samples` counts every sample as the profile's median gap
 * instead: CPU-like figures from a busy machine's profiles.
 */
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string', default: '30' }, samples: { type: 'boolean', default: false } },
})

interface Profile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[]
  samples: number[]
  timeDeltas: number[]
}

/** ms of self time by "function file:line", and the profile's busy ms (all but idle). */
function selfTimes(file: string): { by: Map<string, number>; busy: number } {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile
  const names = new Map<number, string>()
  for (const { id, callFrame: f } of profile.nodes) {
    const where = f.url ? ` ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}` : ''
    names.set(id, `${f.functionName || '(anonymous)'}${where}`)
  }
  const by = new Map<string, number>()
  let busy = 0
  const median = [...profile.timeDeltas].sort((x, y) => x - y)[profile.timeDeltas.length >> 1]! / 1000
  for (let i = 0; i < profile.samples.length; i++) {
    const name = names.get(profile.samples[i]!)!
    const ms = args.samples ? median : (profile.timeDeltas[i + 1] ?? 0) / 1000
    by.set(name, (by.get(name) ?? 0) + ms)
    if (name !== '(idle)') busy += ms
  }
  return { by, busy }
}

const [a, b] = positionals.map(selfTimes)
if (!a) {
  console.error('usage: npx tsx bench/profile-top.ts A.cpuprofile [B.cpuprofile] [--top 30]')
  process.exit(2)
}
const top = Number(args.top)
console.log(`busy (all but idle): ${a.busy.toFixed(0)} ms${b ? ` | ${b.busy.toFixed(0)} ms` : ''}`)
const rows = [...new Set([...a.by.keys(), ...(b?.by.keys() ?? [])])].map((name) => {
  const x = a.by.get(name) ?? 0
  const y = b?.by.get(name) ?? 0
  return { name, x, y, key: b ? y - x : x }
})
rows.sort((p, q) => Math.abs(q.key) - Math.abs(p.key))
for (const { name, x, y } of rows.slice(0, top))
  console.log(
    b
      ? `${x.toFixed(1).padStart(8)} ${y.toFixed(1).padStart(8)} ${(y - x >= 0 ? '+' : '') + (y - x).toFixed(1).padStart(7)}  ${name}`
      : `${x.toFixed(1).padStart(8)} ${((100 * x) / a.busy).toFixed(1).padStart(5)} %  ${name}`,
  )
