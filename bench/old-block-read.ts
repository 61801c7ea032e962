/**
 * The read of a block older than the ones a data directory keeps decoded (eth_getTransactionReceipt of an
 * older transaction, eth_getLogs over a range, a follower walking history): one block of `--txs` transfers
 * (default 50, from 10 dev accounts) is sealed in a fresh --data-dir, then read back from LevelDB as stored
 * (its senders beside it) and as a directory written before senders were stored holds it (the same block
 * bytes under another number, no senders: each signature recovered), alternating, `--reads` reads a round.
 * Each read is measured twice: the read alone (`read`: what eth_getLogs and a block without its transactions
 * use) and the read with every transaction built (`+txs`: a block with its transactions, a replay).
 * `--baseline DIR`: the same reads by another checkout's DiskHistory (its src/, loaded beside ours in this
 * process), in the same rounds.
 * Prints per read: the median round's wall time, CPU (process.cpuUsage, user + system) and the bytes it
 * allocated (V8's sampling heap profiler, collected objects included: the figure that does not move with the
 * machine's load), load average beside them.
 *
 *   npx tsx bench/old-block-read.ts [--txs 50] [--reads 200] [--rounds 10] [--baseline DIR]
 *
 * Internals on purpose: the read is DiskHistory.read, what every path to an older block goes through; no
 * public surface reads an old block without the JSON around it, which would blur the decode it measures.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import type { Common } from '@ethereumjs/common'
import { bytesToHex } from '@ethereumjs/util'
import { signTx } from '../test/support/sign-tx.js'
import { createChain } from '../src/chain/create-chain.js'
import { type Level, openDataDir } from '../src/chain/persist/db.js'
import { DiskHistory } from '../src/chain/persist/disk-history.js'
import { blockKey } from '../src/chain/persist/keys.js'
import { defaultConfig } from '../src/config.js'
import type { BlockRecord } from '../src/domain/types.js'
import { installEvmPatches } from '../src/evm/patches/install.js'
import { quartiles } from './lib.js'

const { values } = parseArgs({
  options: {
    txs: { type: 'string', default: '50' },
    reads: { type: 'string', default: '200' },
    rounds: { type: 'string', default: '10' },
    baseline: { type: 'string' },
  },
})
const [txs, reads, rounds] = [values.txs, values.reads, values.rounds].map(Number) as [number, number, number]

type Read = (db: Level, common: Common, number: bigint) => BlockRecord | undefined
const readers: { label: string; read: Read }[] = [{ label: 'ours', read: DiskHistory.read }]
if (values.baseline) {
  const path = resolve(values.baseline, 'src/chain/persist/disk-history.ts')
  const { DiskHistory: Baseline } = (await import(path)) as { DiskHistory: { read: Read } }
  readers.push({ label: 'baseline', read: Baseline.read })
}

await installEvmPatches()
const dir = mkdtempSync(join(tmpdir(), 'preconf-old-block-'))
const heap = new Session()
heap.connect()
try {
  const chain = await createChain(defaultConfig({ quiet: true, dataDir: dir }))
  const senders = 10
  for (let i = 0; i < txs; i++)
    await chain.sendRawTransaction(await signTx(chain, i % senders, { nonce: Math.floor(i / senders), value: 1n }))
  const block = await chain.mine()
  const { common } = chain
  await chain.stop()
  if (block.txs.length !== txs + 1) throw new Error(`sealed ${block.txs.length - 1} of ${txs} transfers`)

  const { db } = await openDataDir(dir, Number(common.chainId()))
  const unsent = block.number + 1000n // the same bytes, no senders beside them
  await db.put(blockKey(unsent), db.getSync(blockKey(block.number))!)
  const expected = block.txs.map((t) => `${bytesToHex(t.hash)}:${bytesToHex(t.sender)}:${t.tx.to}`).join()
  for (const { label, read } of readers)
    for (const n of [block.number, unsent]) {
      const found = read(db, common, n)!
      const seen = found.txs.map((t) => `${bytesToHex(t.hash)}:${bytesToHex(t.sender)}:${t.tx.to}`).join()
      if (seen !== expected || bytesToHex(found.hash) !== bytesToHex(block.hash))
        throw new Error(`${label}: block ${n} read back otherwise`)
    }

  const cases = readers.flatMap(({ label, read }) =>
    [
      { layout: 'stored', number: block.number },
      { layout: 'recovered', number: unsent },
    ].flatMap(({ layout, number }) =>
      [false, true].map((all) => ({
        name: `${label} ${layout} senders, ${all ? '+txs' : 'read'}`,
        run: () => {
          const found = read(db, common, number)!
          if (all) for (const t of found.txs) t.tx.type
        },
        wall: [] as number[],
        cpu: 0,
        bytes: 0,
      })),
    ),
  )
  type Case = (typeof cases)[number]
  const round = (c: Case) => {
    const c0 = process.cpuUsage()
    const t0 = performance.now()
    for (let i = 0; i < reads; i++) c.run()
    c.wall.push((performance.now() - t0) / reads)
    const used = process.cpuUsage(c0)
    c.cpu += (used.user + used.system) / 1000 / reads
  }
  for (const c of cases) round(c) // warm-up of every path, not counted
  for (const c of cases) c.wall.length = c.cpu = 0
  for (let r = 0; r < rounds; r++) for (const c of r % 2 ? [...cases].reverse() : cases) round(c)
  // bytes in a round of their own: the profiler's sampling costs CPU
  for (const c of cases) {
    await heap.post('HeapProfiler.startSampling', {
      samplingInterval: 256,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    })
    for (let i = 0; i < reads; i++) c.run()
    const { profile } = await heap.post('HeapProfiler.stopSampling')
    c.bytes = selfSizes(profile.head) / reads
  }
  await db.close()
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')
  for (const c of cases)
    console.log(
      `${c.name.padEnd(36)} ${txs} transfers: wall median ${quartiles(c.wall)[1].toFixed(3)} ms a read, ` +
        `CPU ${(c.cpu / rounds).toFixed(3)} ms a read, ${Math.round(c.bytes / 1024)} KB allocated a read`,
    )
  console.log(`${rounds} rounds of ${reads} reads each, alternating; load average ${load}`)
} finally {
  heap.disconnect()
  rmSync(dir, { recursive: true, force: true })
}

type Node = { selfSize: number; children: Node[] }

/** The bytes a sampling heap profile counts under `node` (each node's self size: its samples scaled). */
function selfSizes(node: Node): number {
  return node.children.reduce((sum, child) => sum + selfSizes(child), node.selfSize)
}
