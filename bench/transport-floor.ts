import { readFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { afterGets, type Server } from './after-gets.js'
import { BARE, startFloor } from './floors.js'
import { cpuNs, freePort, quartiles, sleep, startAnvil, startOurs, type Target } from './lib.js'
import { cases } from './read-cases.js'

const { values: args } = parseArgs({
  options: {
    n: { type: 'string', default: '5000' },
    connections: { type: 'string', default: '16' },
    rounds: { type: 'string', default: '21' },
    baseline: { type: 'string' },
    'no-mining': { type: 'boolean', default: false },
    only: { type: 'string' },
    'cpu-prof': { type: 'string' },
    'floor-in-ours': { type: 'boolean', default: false },
    together: { type: 'string', default: '0' },
    case: { type: 'string', default: 'chainId' },
    'after-gets': { type: 'string' },
    warm: { type: 'string', default: '10000' },
    window: { type: 'string', default: '500' },
    windows: { type: 'string', default: '4' },
    'callgrind-out': { type: 'string' },
    'gets-first': { type: 'boolean', default: false },
    processes: { type: 'string', default: '1' },
  },
})

/** V8's default sampling (1 ms) is coarser than a request. */
const profArgs = (label: string) =>
  args['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${join(args['cpu-prof'], label)}`, '--cpu-prof-interval=50'] : []

/** The request every server is sent: one of read-cases.ts's that needs no fixtures (chainId, balanceLatest, …). */
const sent = cases('0x', '0x')[args.case!]
if (sent === undefined || JSON.stringify(sent).includes('"0x"'))
  throw new Error(`--case ${args.case}: not a case without fixtures`)
const body = JSON.stringify(sent)

/** User and system CPU of a process in ms (/proc ticks of 10 ms): their shares over all rounds. */
function cpuSplit(pid: number): [number, number] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return [Number(f[11]) * 10, Number(f[12]) * 10]
}

interface Round {
  /** µs per request, every thread and the main thread alone. */
  all: number
  main: number
  /** The round's wall time in ms. */
  ms: number
}

async function round(target: Target, amount: number): Promise<Round> {
  const before = cpuNs(target.pid!)
  const t0 = performance.now()
  const result = await autocannon({
    url: target.url,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    connections: Number(args.connections),
    amount,
  })
  const after = cpuNs(target.pid!)
  const ms = performance.now() - t0
  if (result.non2xx || result.errors)
    throw new Error(`${target.label}: ${result.non2xx} non-2xx, ${result.errors} errors`)
  return { all: (after.all - before.all) / 1000 / amount, main: (after.main - before.main) / 1000 / amount, ms }
}

/**
 * `--together SECONDS`: every server loaded at once for SECONDS (an autocannon each, all from this process), so
 * a neighbour's burst lands on all of them in the same moment, not on one server's round; per server, its CPU
 * over the window by the requests it answered. Each gets a share of the client's speed, not the machine's.
 */
async function togetherRound(targets: Target[], seconds: number): Promise<Round[]> {
  const before = targets.map((t) => cpuNs(t.pid!))
  const t0 = performance.now()
  const results = await Promise.all(
    targets.map((target) =>
      autocannon({
        url: target.url,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        connections: Number(args.connections),
        duration: seconds,
      }),
    ),
  )
  const ms = performance.now() - t0
  return targets.map((target, i) => {
    const after = cpuNs(target.pid!)
    const { non2xx, errors, requests } = results[i]!
    if (non2xx || errors) throw new Error(`${target.label}: ${non2xx} non-2xx, ${errors} errors`)
    const n = requests.total
    return { all: (after.all - before[i]!.all) / 1000 / n, main: (after.main - before[i]!.main) / 1000 / n, ms }
  })
}

/**
 * Each server's CPU while nobody calls it: 2 s before the rounds, 2 s after and a short gap after every cycle,
 * summed, so the rate is sampled across the run (a block sealed in one window and not in another swung a
 * single window's rate 2x).
 */
class IdleMeter {
  private readonly ns: number[]
  private ms = 0
  constructor(private readonly targets: Target[]) {
    this.ns = targets.map(() => 0)
  }
  async measure(ms: number): Promise<void> {
    const before = this.targets.map((t) => cpuNs(t.pid!).all)
    const t0 = performance.now()
    await sleep(ms)
    this.ms += performance.now() - t0
    this.targets.forEach((t, i) => {
      this.ns[i]! += cpuNs(t.pid!).all - before[i]!
    })
  }
  /** CPU ms per second of idle time, by target. */
  rates(): number[] {
    return this.ns.map((ns) => ns / 1e6 / (this.ms / 1000))
  }
}

const f1 = (x: number) => x.toFixed(1)
const f2 = (x: number) => x.toFixed(2)
const load = () => loadavg().map(f1).join(' ')
const wanted = (label: string) => !args.only || args.only.split(',').some((name) => label.startsWith(name))

const together = Number(args.together)
// the floor inside our process shares its pid: loaded at once, their CPU could not be told apart
if (together > 0 && args['floor-in-ours']) throw new Error('--together and --floor-in-ours measure one process twice')
// under --after-gets a block built inside a counted window would be counted as the POSTs'
const noMining = args['no-mining'] || args['after-gets'] !== undefined
const oursArgs = noMining ? ['--no-mining'] : []
const suffix = noMining ? ' --no-mining' : ''
/**
 * `--floor-in-ours`: the bare server's listener also runs inside our service's process, on a port of its own: what
 * it costs there beyond the bare process is the weight of our process (its heap, timers, V8's state), not our path.
 */
async function startOursWithFloor(wrap: string[] = []): Promise<Target[]> {
  const port = await freePort()
  const floor = `import { createServer } from 'node:http'; createServer(${BARE}).listen(${port}, '127.0.0.1')`
  const ours = await startOurs(
    oursArgs,
    [...profArgs('ours'), '--import', `data:text/javascript,${encodeURIComponent(floor)}`],
    undefined,
    undefined,
    wrap,
  )
  return [
    { ...ours, label: `ours${suffix}` },
    { ...ours, label: 'node:http in ours', url: `http://127.0.0.1:${port}/`, stop: async () => {} },
  ]
}

/** `wrap`: a command node runs under (valgrind, for --after-gets). */
const starters: [string, (wrap: string[]) => Promise<Target>][] = [
  ['node:http', (wrap) => startFloor('node:http', profArgs('node-http'), wrap)],
  ['fastify', () => startFloor('fastify', profArgs('fastify'))],
  [
    `ours${suffix}`,
    async (wrap) => ({
      ...(await startOurs(oursArgs, profArgs('ours'), undefined, undefined, wrap)),
      label: `ours${suffix}`,
    }),
  ],
  ...(args.baseline
    ? [
        [
          `baseline${suffix}`,
          async (wrap: string[]) => ({
            ...(await startOurs(oursArgs, [], args.baseline, undefined, wrap)),
            label: `baseline${suffix}`,
          }),
        ] as [string, (wrap: string[]) => Promise<Target>],
      ]
    : []),
  ['anvil', () => startAnvil('1')],
]

/**
 * `--after-gets N`: instructions per POST (callgrind) of node:http and ours (and the baseline; with
 * --floor-in-ours the bare listener in our process too) before and after N GET /health and N preflights, beside
 * the same servers sent POSTs only (after-gets.ts). Neither the fastify floor (no /health) nor anvil runs under it.
 */
async function afterGetsMode() {
  const servers: Server[] = starters
    .filter(([label]) => label !== 'fastify' && label !== 'anvil' && wanted(label))
    .map(([label, start]) => ({
      label,
      start:
        label.startsWith('ours') && args['floor-in-ours']
          ? startOursWithFloor
          : async (wrap: string[]) => [await start(wrap)],
    }))
  await afterGets(servers, {
    caseName: args.case!,
    body,
    gets: Number(args['after-gets']),
    getsFirst: args['gets-first']!,
    warm: Number(args.warm),
    window: Number(args.window),
    windows: Number(args.windows),
    processes: Number(args.processes),
    keep: args['callgrind-out'],
  })
}

/** The CPU rounds of every server (the default). */
async function rounds() {
  const targets: Target[] = []
  for (const [label, start] of starters)
    if (label.startsWith('ours') && args['floor-in-ours']) targets.push(...(await startOursWithFloor()))
    else if (label === 'node:http' || wanted(label)) targets.push(await start([]))
  try {
    const cycles = Number(args.rounds)
    const amount = Number(args.n)
    const loadAtStart = load()
    for (const target of targets) await round(target, 20_000) // the JIT's warm-up
    const idle = new IdleMeter(targets)
    await idle.measure(2000)
    const rounds = new Map<string, Round[]>(targets.map((t) => [t.label, []]))
    const split0 = targets.map((t) => cpuSplit(t.pid!))
    const loads: number[] = []
    for (let cycle = 0; cycle < cycles; cycle++) {
      if (together > 0) {
        const all = await togetherRound(targets, together)
        targets.forEach((target, i) => rounds.get(target.label)!.push(all[i]!))
      } // rotate the order, so no server always runs right after another (or first in a cycle)
      else
        for (let i = 0; i < targets.length; i++) {
          const target = targets[(cycle + i) % targets.length]!
          rounds.get(target.label)!.push(await round(target, amount))
        }
      loads.push(loadavg()[0]!)
      await idle.measure(150)
    }
    const split1 = targets.map((t) => cpuSplit(t.pid!))
    await idle.measure(2000)
    const idleRates = idle.rates()
    const floor = rounds.get('node:http')!
    const [l25, l50, l75] = quartiles(loads)
    console.log(
      `${args.case}, ${args.connections} connections, ${cycles} cycles ${together > 0 ? `of every server at once for ${together} s` : `of ${amount} requests a server`}, ` +
        `1-min load ${loadAtStart} at the start, ${load()} at the end, per cycle median ${f1(l50)} (IQR ${f1(l25)}-${f1(l75)})`,
    )
    console.log(
      '| server | CPU µs/req, median (IQR) | main thread µs/req, ×node:http | user / system | ×node:http, per cycle: median (IQR) | idle CPU ms/s | less idle: µs/req, ×node:http |',
    )
    console.log('|---|---|---|---|---|---|---|')
    targets.forEach((target, i) => {
      const all = rounds.get(target.label)!
      const [a25, a50, a75] = quartiles(all.map((r) => r.all))
      const [, m50] = quartiles(all.map((r) => r.main))
      const [, mr50] = quartiles(all.map((r, c) => r.main / floor[c]!.main))
      const user = split1[i]![0] - split0[i]![0]
      const sys = split1[i]![1] - split0[i]![1]
      const [r25, r50, r75] = quartiles(all.map((r, c) => r.all / floor[c]!.all))
      const ratio = target.label === 'node:http' ? '1' : `**${f2(r50)}×** (${f2(r25)}-${f2(r75)})`
      // what the round's requests cost beyond what the server burns unasked in as long (its timers, block building)
      const busy = (r: Round, server = i) => r.all - (idleRates[server]! * r.ms) / amount
      const [, b50] = quartiles(all.map((r) => busy(r)))
      const [, br50] = quartiles(all.map((r, c) => busy(r) / busy(floor[c]!, 0)))
      console.log(
        `| ${target.label} | **${f1(a50)}** (${f1(a25)}-${f1(a75)}) | ${f1(m50)}, ${f2(mr50)}× | ${Math.round((100 * user) / (user + sys))} % / ` +
          `${Math.round((100 * sys) / (user + sys))} % | ${ratio} | ${f1(idleRates[i]!)} | ${f1(b50)}, ${f2(br50)}× |`,
      )
    })
  } finally {
    for (const target of targets) await target.stop()
  }
}

if (args['after-gets'] !== undefined) await afterGetsMode()
else await rounds()
