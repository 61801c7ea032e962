/**
 * The read of a block older than the ones a data directory keeps decoded (eth_getTransactionReceipt of an
 * older transaction, eth_getLogs over a range, a follower walking history): one block of `--txs` transfers
 * (default 50, from 10 dev accounts) is sealed in a fresh --data-dir, then read back from LevelDB as stored
 * (its senders beside it) and as a directory written before senders were stored holds it (the same block
 * bytes under another number, no senders: each signature recovered), alternating, `--reads` reads a round.
 * Prints per read: the median round's wall time and CPU (process.cpuUsage, user + system) per read, load average
 * beside them.
 *
 *   npx tsx bench/old-block-read.ts [--txs 50] [--reads 200] [--rounds 10]
 *
 * Internals on purpose: the read is DiskHistory.read, what every path to an older block goes through; no
 * public surface reads an old block without the JSON around it, which would blur the decode it measures.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { bytesToHex } from '@ethereumjs/util'
import { signTx } from '../test/support/sign-tx.js'
import { createChain } from '../src/chain/create-chain.js'
import { openDataDir } from '../src/chain/persist/db.js'
import { DiskHistory } from '../src/chain/persist/disk-history.js'
import { blockKey } from '../src/chain/persist/keys.js'
import { defaultConfig } from '../src/config.js'
import { installEvmPatches } from '../src/evm/patches/install.js'
import { quartiles } from './lib.js'

const { values } = parseArgs({
  options: {
    txs: { type: 'string', default: '50' },
    reads: { type: 'string', default: '200' },
    rounds: { type: 'string', default: '10' },
  },
})
const [txs, reads, rounds] = [values.txs, values.reads, values.rounds].map(Number) as [number, number, number]

await installEvmPatches()
const dir = mkdtempSync(join(tmpdir(), 'preconf-old-block-'))
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
  const expected = block.txs.map((t) => bytesToHex(t.sender)).join()
  for (const n of [block.number, unsent])
    if (
      DiskHistory.read(db, common, n)!
        .txs.map((t) => bytesToHex(t.sender))
        .join() !== expected
    )
      throw new Error(`block ${n} read back with other senders`)

  const wall = { stored: [] as number[], recovered: [] as number[] }
  const cpu = { stored: 0, recovered: 0 }
  const run = (kind: keyof typeof wall, number: bigint) => {
    const c0 = process.cpuUsage()
    const t0 = performance.now()
    for (let i = 0; i < reads; i++) DiskHistory.read(db, common, number)
    wall[kind].push((performance.now() - t0) / reads)
    const used = process.cpuUsage(c0)
    cpu[kind] += (used.user + used.system) / 1000 / reads
  }
  run('stored', block.number) // warm-up of both paths, not counted
  run('recovered', unsent)
  wall.stored.length = wall.recovered.length = cpu.stored = cpu.recovered = 0
  for (let r = 0; r < rounds; r++) {
    if (r % 2) {
      run('recovered', unsent)
      run('stored', block.number)
    } else {
      run('stored', block.number)
      run('recovered', unsent)
    }
  }
  await db.close()
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')
  for (const kind of ['recovered', 'stored'] as const)
    console.log(
      `${kind.padEnd(9)} senders, ${txs} transfers: wall median ${quartiles(wall[kind])[1].toFixed(3)} ms a read ` +
        `(rounds ${wall[kind].map((w) => w.toFixed(2)).join(' ')}), CPU ${(cpu[kind] / rounds).toFixed(3)} ms a read`,
    )
  console.log(`${rounds} rounds of ${reads} reads each, alternating; load average ${load}`)
} finally {
  rmSync(dir, { recursive: true, force: true })
}
