/**
 * Follower preconfirmation latency: send -> preconfirmed receipt through a follower (its sends forwarded
 * to the leader, its receipts from re-executing the leader's feed) against the same directly on the leader,
 * in one run: eth_sendRawTransaction returned -> eth_getTransactionReceipt on /flashblocks polled every
 * 10 ms, Poisson arrivals at 100 tx/s by default. The follower's extra is its feed hop plus re-execution.
 *
 *   npx tsx bench/follower-latency.ts [--seconds 10] [--rate 100] [--poll-ms 10]
 */
import { parseArgs } from 'node:util'
import { signTransfers as signBatch, percentiles, rpc, sleep, startOurs, type Target } from './lib.js'

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    rate: { type: 'string', default: '100' },
    'poll-ms': { type: 'string', default: '10' },
  },
})
const seconds = Number(args.seconds)
const rate = Number(args.rate)
const pollMs = Number(args['poll-ms'])

async function oneTx(url: string, raw: string): Promise<number> {
  const hash = await rpc<string>(url, 'eth_sendRawTransaction', [raw])
  const sent = performance.now()
  for (;;) {
    if (await rpc(url, 'eth_getTransactionReceipt', [hash])) return performance.now() - sent
    if (performance.now() - sent > 30_000) throw new Error(`no receipt for ${hash} after 30 s`)
    await sleep(pollMs)
  }
}

async function measure(label: string, url: string) {
  const raws = await signBatch(url, Math.max(10, Math.round(rate * seconds)))
  const latencies: Promise<number>[] = []
  for (const raw of raws) {
    latencies.push(oneTx(url, raw))
    await sleep(-Math.log(1 - Math.random()) * (1000 / rate)) // exponential gaps: Poisson arrivals
  }
  return { target: label, rate, ...percentiles(await Promise.all(latencies)) }
}

const leader: Target = await startOurs()
const base = leader.url.replace(/flashblocks$/, '')
const follower: Target = await startOurs(['--upstream', base, '--upstream-feed', leader.feedUrl!])
try {
  // a follower preconfirms from the first index 0 it sees in full: let one block pass
  await sleep(2_000)
  const rows = [await measure('leader /flashblocks', leader.url), await measure('follower /flashblocks', follower.url)]
  console.log(
    `\nsend -> preconfirmed receipt (ms), receipt polled every ${pollMs} ms, ${seconds} s at ${rate} tx/s each`,
  )
  console.table(rows)
  const [l, f] = rows
  console.log(`follower adds p50 ${(f.p50 - l.p50).toFixed(1)} ms, p99 ${(f.p99 - l.p99).toFixed(1)} ms`)
} finally {
  await follower.stop()
  await leader.stop()
}
