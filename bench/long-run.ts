/**
 * Memory over a long run with --data-dir: the service as a child process, transfers sent at a steady
 * rate (default 50 tx/s) over HTTP, and every `--sample` seconds its RSS (from /proc), the chain height
 * and the data directory's size. Growth is judged after warm-up (the first fifth of the run): history
 * lives on disk, so RSS must stay flat while the directory grows.
 *
 *   nice npx tsx bench/long-run.ts [--minutes 60] [--rate 50] [--sample 60]
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { rpc, signTransfers, sleep, startOurs } from './lib.js'

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

const rssMb = (pid: number) => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/)
  return line ? Number(line[1]) / 1024 : Number.NaN
}
const dirBytes = (dir: string) => readdirSync(dir).reduce((sum, f) => sum + statSync(join(dir, f)).size, 0)

const dir = mkdtempSync(join(tmpdir(), 'preconf-long-'))
const target = await startOurs(['--data-dir', dir])
const url = target.url
const samples: { min: number; rss: number; height: number; disk: number; sent: number }[] = []
let sent = 0
let rejected = 0
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
  let nextSample = sampleMs
  while (elapsed() < end) {
    // one batch a second, signed ahead (signing stays out of the service's time), sent evenly over it
    const raws = await signTransfers(url, rate)
    const start = elapsed()
    for (let i = 0; i < raws.length; i++) {
      await sleep(start + (i * 1000) / rate - elapsed())
      rpc(url, 'eth_sendRawTransaction', [raws[i]]).then(
        () => sent++,
        () => rejected++,
      )
    }
    await sleep(start + 1000 - elapsed())
    if (elapsed() >= nextSample) {
      await sample()
      nextSample += sampleMs
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
  const blocks = last.height - first.height
  console.log(
    `disk: ${((last.disk - first.disk) / (last.sent - first.sent)).toFixed(0)} B per transfer at ${rate} tx/s (${blocks} blocks, block share included)`,
  )
} finally {
  await target.stop()
  rmSync(dir, { recursive: true, force: true })
}
