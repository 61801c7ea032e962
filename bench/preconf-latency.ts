/**
 * Preconfirmation latency: time from eth_sendRawTransaction returning to eth_getTransactionReceipt
 * returning the receipt (polled every 10 ms), at 1, 10 and 100 tx/s with Poisson (random) send times —
 * sequential sends phase-lock to the cadence and hide the real distribution. Also the same with
 * eth_sendRawTransactionSync, and the flashblock interval's jitter from the raw feed. anvil with
 * --block-time 0.2 and 1 is measured in the same run for comparison.
 *
 *   npx tsx bench/preconf-latency.ts [--seconds 10] [--rates 1,10,100] [--no-anvil]
 */
import { parseArgs } from 'node:util'
import WebSocket from 'ws'
import { signTransfers as signBatch, percentiles, rpc, sleep, startAnvil, startOurs, type Target } from './lib.js'

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    rates: { type: 'string', default: '1,10,100' },
    'poll-ms': { type: 'string', default: '10' },
    'no-anvil': { type: 'boolean', default: false },
  },
})
const seconds = Number(args.seconds)
const rates = args.rates!.split(',').map(Number)
const pollMs = Number(args['poll-ms'])

type Mode = 'poll' | 'sync'

async function oneTx(url: string, raw: string, mode: Mode): Promise<number> {
  if (mode === 'sync') {
    const t0 = performance.now()
    await rpc(url, 'eth_sendRawTransactionSync', [raw, 6000])
    return performance.now() - t0
  }
  const hash = await rpc<string>(url, 'eth_sendRawTransaction', [raw])
  const tSent = performance.now()
  for (;;) {
    if (await rpc(url, 'eth_getTransactionReceipt', [hash])) return performance.now() - tSent
    if (performance.now() - tSent > 30_000) throw new Error(`no receipt for ${hash} after 30 s`)
    await sleep(pollMs)
  }
}

async function measure(target: Target, rate: number, mode: Mode) {
  const url = mode === 'sync' ? target.syncUrl! : target.url
  const count = Math.max(10, Math.round(rate * seconds))
  const raws = await signBatch(url, count)
  const pending: Promise<number>[] = []
  for (const raw of raws) {
    pending.push(oneTx(url, raw, mode))
    await sleep(-Math.log(1 - Math.random()) * (1000 / rate)) // exponential gaps: Poisson arrivals
  }
  const latencies = await Promise.all(pending)
  return { target: target.label, mode, rate, ...percentiles(latencies) }
}

async function feedJitter(target: Target, ms: number) {
  if (!target.feedUrl) return undefined
  const ws = new WebSocket(target.feedUrl)
  const arrivals: number[] = []
  ws.on('message', (frame) => {
    const msg = JSON.parse(frame.toString())
    if ('diff' in msg) arrivals.push(performance.now())
  })
  await new Promise((r) => ws.once('open', r))
  await sleep(ms)
  ws.close()
  const gaps = arrivals.slice(1).map((t, i) => t - arrivals[i])
  return {
    flashblocks: arrivals.length,
    interval: percentiles(gaps),
    deviationFrom200: percentiles(gaps.map((g) => Math.abs(g - 200))),
  }
}

const rows: Record<string, unknown>[] = []
const targets: (() => Promise<Target>)[] = [() => startOurs()]
if (!args['no-anvil'])
  targets.push(
    () => startAnvil('0.2'),
    () => startAnvil('1'),
  )

for (const start of targets) {
  const target = await start()
  try {
    const jitter = await feedJitter(target, 5_000)
    if (jitter) console.log(`${target.label} flashblock cadence over 5 s:`, JSON.stringify(jitter))
    for (const rate of rates) {
      rows.push(await measure(target, rate, 'poll'))
      if (target.syncUrl) rows.push(await measure(target, rate, 'sync'))
    }
  } finally {
    await target.stop()
  }
}
console.log(
  '\nsend -> receipt latency (ms): poll = eth_sendRawTransaction returned -> receipt polled every',
  pollMs,
  'ms; sync = eth_sendRawTransactionSync round trip',
)
console.table(rows)
