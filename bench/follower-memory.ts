/**
 * Follower memory over a long run: a leader (embedded chain) and a follower of it as separate processes,
 * transfers sent through the follower at a steady rate (forwarded to the leader, preconfirmed from its feed),
 * and the follower's RSS read from /proc every interval. The follower keeps `--follower-cache-blocks` blocks
 * in full; anything beyond that should not grow with time. Every 50th transaction's preconfirmed receipt is
 * awaited on the follower so the pending path stays exercised and a stalled follower shows up.
 *
 *   nice npx tsx bench/follower-memory.ts [--minutes 60] [--rate 50] [--sample-seconds 30] [--cache-blocks 128]
 *
 * Prints one JSON line per sample (minute, txs sent, follower RSS and the leader's for contrast).
 */
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { devAccount, rpc, sleep, startOurs } from './lib.js'

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '60' },
    rate: { type: 'string', default: '50' },
    'sample-seconds': { type: 'string', default: '30' },
    'cache-blocks': { type: 'string', default: '128' },
  },
})
const minutes = Number(args.minutes)
const rate = Number(args.rate)
const sampleMs = Number(args['sample-seconds']) * 1000

function rssMb(pid: number | undefined): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN)
  return Math.round(kb / 102.4) / 10
}

const leader = await startOurs()
const base = leader.url.replace(/flashblocks$/, '')
const follower = await startOurs([
  '--upstream',
  base,
  '--upstream-feed',
  leader.feedUrl!,
  '--follower-cache-blocks',
  args['cache-blocks']!,
])
const senders = [1, 2, 3, 4, 5, 6, 7, 8, 9].map(devAccount)
const recipient = devAccount(0).address
const chainId = Number(await rpc(follower.url, 'eth_chainId'))
const gasPrice = BigInt(await rpc(follower.url, 'eth_gasPrice'))
const nonces = await Promise.all(
  senders.map((s) => rpc(follower.url, 'eth_getTransactionCount', [s.address, 'pending']).then(Number)),
)

let sent = 0
let failed = 0
let unconfirmed = 0
const started = performance.now()
const elapsedMin = () => (performance.now() - started) / 60_000

async function watch(hash: string) {
  const t0 = performance.now()
  while (performance.now() - t0 < 10_000) {
    if (await rpc(follower.url, 'eth_getTransactionReceipt', [hash]).catch(() => null)) return
    await sleep(50)
  }
  unconfirmed++
}

async function sendOne(i: number) {
  const k = i % senders.length
  const raw = await senders[k].signTransaction({
    chainId,
    type: 'eip1559',
    nonce: nonces[k]++,
    to: recipient,
    value: 1n,
    gas: 21_000n,
    maxFeePerGas: gasPrice * 3n,
    maxPriorityFeePerGas: 1_000_000n,
  })
  try {
    const hash = await rpc<string>(follower.url, 'eth_sendRawTransaction', [raw])
    sent++
    if (i % 50 === 0) void watch(hash)
  } catch (err) {
    failed++
    if (failed < 5) console.error(`send ${i}: ${(err as Error).message}`)
  }
}

function sample() {
  console.log(
    JSON.stringify({
      minute: Math.round(elapsedMin() * 10) / 10,
      sent,
      failed,
      unconfirmed,
      followerRssMb: rssMb(follower.pid),
      leaderRssMb: rssMb(leader.pid),
      followerHeight: followerHeight,
    }),
  )
}

let followerHeight = 0
const sampler = setInterval(() => {
  rpc<string>(follower.url, 'eth_blockNumber')
    .then((h) => {
      followerHeight = Number(h)
    })
    .catch(() => {})
    .finally(sample)
}, sampleMs)
sample()
try {
  // paced against the clock so a slow send does not lower the rate
  for (let i = 0; elapsedMin() < minutes; i++) {
    const due = started + (i * 1000) / rate
    const wait = due - performance.now()
    if (wait > 0) await sleep(wait)
    void sendOne(i)
  }
  await sleep(2_000)
  sample()
} finally {
  clearInterval(sampler)
  await follower.stop()
  await leader.stop()
}
