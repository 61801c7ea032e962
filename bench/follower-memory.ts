/**
 * Follower memory over a long run: a leader (embedded chain) and a follower of it as separate processes,
 * transfers sent through the follower at a steady rate (forwarded to the leader, preconfirmed from its feed),
 * and the follower's RSS read from /proc every interval. The follower keeps `--follower-cache-blocks` blocks
 * in full; anything beyond that should not grow with time. Every 50th transaction's preconfirmed receipt is
 * awaited on the follower so the pending path stays exercised and a stalled follower shows up.
 *
 *   nice npx tsx bench/follower-memory.ts [--minutes 60] [--rate 50] [--sample-seconds 30] [--cache-blocks 128]
 *
 * Prints one JSON line per sample (minute, txs sent and the rate achieved, follower RSS and the leader's for
 * contrast). 40 dev accounts send, one transaction in flight each: an overloaded machine lowers the rate.
 */
import { parseArgs } from 'node:util'
import { devAccount, rpc, rssMb, sleep, startOurs } from './lib.js'

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

const SENDERS = 40
const leader = await startOurs(['--accounts', String(SENDERS + 1)])
const base = leader.url.replace(/flashblocks$/, '')
const follower = await startOurs([
  '--upstream',
  base,
  '--upstream-feed',
  leader.feedUrl!,
  '--follower-cache-blocks',
  args['cache-blocks']!,
])
// one transaction in flight per sender, so a slow leader lowers the rate instead of piling up requests
const senders = Array.from({ length: SENDERS }, (_, i) => devAccount(i + 1))
const recipient = devAccount(0).address
const chainId = Number(await rpc(follower.url, 'eth_chainId'))
const gasPrice = BigInt(await rpc(follower.url, 'eth_gasPrice'))

let sent = 0
let failed = 0
let unconfirmed = 0
/** Error messages by count; a failed send re-reads its sender's pending nonce before the next one. */
const errors = new Map<string, number>()
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

const pendingNonce = (k: number) =>
  rpc(follower.url, 'eth_getTransactionCount', [senders[k].address, 'pending']).then(Number)

async function sender(k: number) {
  let nonce = await pendingNonce(k)
  for (let i = k; elapsedMin() < minutes; i += SENDERS) {
    const wait = started + (i * 1000) / rate - performance.now()
    if (wait > 0) await sleep(wait)
    const raw = await senders[k].signTransaction({
      chainId,
      type: 'eip1559',
      nonce,
      to: recipient,
      value: 1n,
      gas: 21_000n,
      maxFeePerGas: gasPrice * 3n,
      maxPriorityFeePerGas: 1_000_000n,
    })
    try {
      const hash = await rpc<string>(follower.url, 'eth_sendRawTransaction', [raw])
      nonce++
      sent++
      if (sent % 50 === 0) void watch(hash)
    } catch (err) {
      failed++
      const message = (err as Error).message.replace(/0x[0-9a-f]+|\d+/gi, 'N')
      errors.set(message, (errors.get(message) ?? 0) + 1)
      nonce = await pendingNonce(k).catch(() => nonce)
    }
  }
}

function sample() {
  console.log(
    JSON.stringify({
      minute: Math.round(elapsedMin() * 10) / 10,
      sent,
      perSecond: Math.round((sent / Math.max(1, performance.now() - started)) * 1000 * 10) / 10,
      failed,
      unconfirmed,
      followerRssMb: Math.round(rssMb(follower.pid!) * 10) / 10,
      leaderRssMb: Math.round(rssMb(leader.pid!) * 10) / 10,
      followerHeight,
      errors: Object.fromEntries(errors),
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
  await Promise.all(senders.map((_, k) => sender(k)))
  await sleep(2_000)
  sample()
} finally {
  clearInterval(sampler)
  await follower.stop()
  await leader.stop()
}
