/**
 * What --data-dir costs, measured in one run against the in-memory chain (same process, same machine):
 * preconfirmation latency (send answered -> receipt preconfirmed, Poisson send times), transfers mined per
 * second with a full pool, restart time with many blocks, and disk bytes per transaction and per empty block.
 *
 *   npx tsx bench/durability.ts [--txs 2000] [--latency-txs 150] [--blocks 2000]
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { hexToBytes } from '@ethereumjs/util'
import type { Chain } from '../src/chain/chain.js'
import { createChain } from '../src/chain/create-chain.js'
import { defaultConfig } from '../src/config.js'
import { installEvmPatches } from '../src/evm/patches/install.js'
import { devAccount, percentiles, sleep } from './lib.js'

const { values: args } = parseArgs({
  options: {
    txs: { type: 'string', default: '2000' },
    'latency-txs': { type: 'string', default: '150' },
    blocks: { type: 'string', default: '2000' },
  },
})
const SENDERS = [1, 2, 3, 4, 5, 6, 7, 8, 9].map(devAccount)
const recipient = devAccount(0).address

async function sign(count: number, from: number[]): Promise<Uint8Array[]> {
  const raws: Uint8Array[] = []
  for (let i = 0; i < count; i++) {
    const k = i % SENDERS.length
    const nonce = from[k]++
    const hex = await SENDERS[k].signTransaction({
      chainId: 196,
      type: 'eip1559',
      nonce,
      to: recipient,
      value: 1n,
      gas: 21_000n,
      maxFeePerGas: 100_000_000_000n,
      maxPriorityFeePerGas: 1_000_000_000n,
    })
    raws.push(hexToBytes(hex))
  }
  return raws
}

function dirBytes(dir: string): number {
  return readdirSync(dir).reduce((sum, f) => sum + statSync(join(dir, f)).size, 0)
}

await installEvmPatches()
const open = (dataDir?: string, quick = false) =>
  createChain(
    defaultConfig({
      quiet: true,
      dataDir,
      txpoolMaxPerSender: 10_000,
      ...(quick ? { blockTimeMs: 200, flashblockIntervalMs: 50 } : {}),
    }),
  )

async function latency(chain: Chain, count: number): Promise<number[]> {
  chain.start()
  const raws = await sign(
    count,
    SENDERS.map(() => 0),
  )
  const out: number[] = []
  const pending: Promise<void>[] = []
  for (const raw of raws) {
    await sleep(-Math.log(1 - Math.random()) * 20) // Poisson, 50 tx/s
    pending.push(
      (async () => {
        const hash = await chain.sendRawTransaction(raw)
        const t0 = performance.now()
        await chain.waitForReceipt(hash, 10_000)
        out.push(performance.now() - t0)
      })(),
    )
  }
  await Promise.all(pending)
  await chain.sequencer.stop()
  return out
}

async function throughput(chain: Chain, count: number): Promise<number> {
  const raws = await sign(
    count,
    SENDERS.map(() => 0),
  )
  for (const raw of raws) await chain.sendRawTransaction(raw)
  const t0 = performance.now()
  let mined = 0
  while (mined < count) mined += (await chain.mine()).txs.length
  return count / ((performance.now() - t0) / 1000)
}

const fmt = (n: number) => n.toFixed(1)
const dirs: string[] = []
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'preconf-bench-'))
  dirs.push(d)
  return d
}
try {
  // 1. preconfirmation latency, 200 ms flashblocks / 1 s blocks (the defaults)
  for (const [label, dir] of [
    ['in memory', undefined],
    ['--data-dir', tmp()],
  ] as const) {
    const chain = await open(dir)
    const p = percentiles(await latency(chain, Number(args['latency-txs'])))
    console.log(`preconfirmation latency ${label}: p50 ${fmt(p.p50)} ms, p90 ${fmt(p.p90)} ms, p99 ${fmt(p.p99)} ms`)
    await chain.stop()
  }
  // 2. transfers mined per second, pool full, blocks sealed back to back
  for (const [label, dir] of [
    ['in memory', undefined],
    ['--data-dir', tmp()],
  ] as const) {
    const chain = await open(dir)
    console.log(`transfers mined per second ${label}: ${fmt(await throughput(chain, Number(args.txs)))}`)
    await chain.stop()
    if (dir) {
      const bytes = dirBytes(dir)
      console.log(
        `disk after ${args.txs} transfers: ${bytes} bytes (${fmt(bytes / Number(args.txs))} per tx, genesis included)`,
      )
    }
  }
  // 3. empty blocks: disk per block, restart time
  const dir = tmp()
  const chain = await open(dir)
  const blocks = Number(args.blocks)
  const before = dirBytes(dir)
  for (let i = 0; i < blocks; i++) await chain.sealNow()
  await chain.stop()
  console.log(`disk per empty block: ${fmt((dirBytes(dir) - before) / blocks)} bytes`)
  const t0 = performance.now()
  const again = await open(dir)
  console.log(`restart with ${blocks + 1} blocks: ${fmt(performance.now() - t0)} ms to a ready chain`)
  await again.stop()
} finally {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
}
