/**
 * Memory over a long run with --data-dir: the service as a child process, transfers sent at a steady
 * rate (default 50 tx/s) over HTTP, and every `--sample` seconds its RSS (from /proc), the chain height
 * and the data directory's size. Growth is judged after warm-up (the first fifth of the run), and the live
 * heap after a forced full GC is printed once warm and at the end (bench/live-heap.ts): history
 * lives on disk, so RSS must stay flat while the directory grows.
 *
 *   nice npx tsx bench/long-run.ts [--minutes 60] [--rate 50] [--sample 60]
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { devAccount, rpc, rssMb, sleep, startOurs } from './lib.js'
import { liveHeap } from './live-heap.js'

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '60' },
    rate: { type: 'string', default: '50' },
    sample: { type: 'string', default: '60' },
  },
})
const minutes = Number(args.minutes)
const rate = Number(args.rate)
const sampleMs = Number(args.sample) * 1000

const dirBytes = (dir: string) => readdirSync(dir).reduce((sum, f) => sum + statSync(join(dir, f)).size, 0)

/** Transfers from dev accounts 1-9 in turn, nonces counted here (nothing waits for the chain). */
async function signer(url: string) {
  const senders = [1, 2, 3, 4, 5, 6, 7, 8, 9].map(devAccount)
  const nonces = await Promise.all(
    senders.map((s) => rpc(url, 'eth_getTransactionCount', [s.address, 'pending']).then(Number)),
  )
  const to = devAccount(0).address
  let k = 0
  return () => {
    k = (k + 1) % senders.length
    return senders[k].signTransaction({
      chainId: 196,
      type: 'eip1559',
      nonce: nonces[k]++,
      to,
      value: 1n,
      gas: 21_000n,
      maxFeePerGas: 100_000_000_000n,
      maxPriorityFeePerGas: 1_000_000n,
    })
  }
}

const dir = mkdtempSync(join(tmpdir(), 'preconf-long-'))
const target = await startOurs(['--data-dir', dir])
const url = target.url
const samples: { min: number; rss: number; height: number; disk: number; sent: number }[] = []
let sent = 0
let rejected = 0
let warmHeap: Awaited<ReturnType<typeof liveHeap>>['after'] | undefined
const t0 = performance.now()
const elapsed = () => performance.now() - t0
const end = minutes * 60_000
const sample = async () => {
  const s = {
    min: Math.round(elapsed() / 600) / 100,
    rss: Math.round(rssMb(target.pid!) * 10) / 10,
    height: Number(await rpc(url, 'eth_blockNumber')),
    disk: dirBytes(dir),
    sent,
  }
  samples.push(s)
  console.log(`t=${s.min} min rss=${s.rss} MB height=${s.height} disk=${s.disk} B sent=${s.sent} rejected=${rejected}`)
}
try {
  await sample()
  const sign = await signer(url)
  let nextSample = sampleMs
  // transfer i goes out at i / rate seconds; a late one goes at once (the achieved rate is printed)
  for (let i = 0; elapsed() < end; i++) {
    const raw = await sign()
    await sleep((i * 1000) / rate - elapsed())
    rpc(url, 'eth_sendRawTransaction', [raw]).then(
      () => sent++,
      () => rejected++,
    )
    if (elapsed() >= nextSample) {
      await sample()
      nextSample += sampleMs
      // the live heap once warm (after that sample, so the forced GC does not lower the baseline RSS)
      if (!warmHeap && elapsed() >= end / 5) warmHeap = (await liveHeap(target.pid!)).after
    }
  }
  await sleep(3000)
  await sample()
  const warm = samples.filter((s) => s.min >= minutes / 5)
  const first = warm[0]
  const last = samples[samples.length - 1]
  const maxRss = Math.max(...warm.map((s) => s.rss))
  console.log(
    `after warm-up (t=${first.min} min, ${first.rss} MB): last ${last.rss} MB, max ${maxRss} MB, growth ${(((maxRss - first.rss) / first.rss) * 100).toFixed(1)} %`,
  )
  const endHeap = (await liveHeap(target.pid!)).after
  console.log(
    `live heap after a full GC: ${warmHeap?.heapUsed} MB once warm, ${endHeap.heapUsed} MB at the end (RSS then ${endHeap.rss} MB)`,
  )
  const blocks = last.height - first.height
  console.log(
    `disk: ${((last.disk - first.disk) / (last.sent - first.sent)).toFixed(0)} B per transfer at ${rate} tx/s, ${((last.sent - first.sent) / ((last.min - first.min) * 60)).toFixed(1)} achieved (${blocks} blocks, block share included)`,
  )
} finally {
  await target.stop()
  rmSync(dir, { recursive: true, force: true })
}
