/**
 * Memory the embedded chain keeps per block (history is never pruned, so every state method works at
 * any past block). Runs B blocks of N ETH transfers to fresh addresses, then E empty blocks, and prints
 * the heap growth after a forced GC, and the growth of array-buffer bytes beside it (outside heapUsed: the
 * in-memory history's packed blocks, codec.ts's bytes, are held there).
 *
 * With a data directory as the fourth argument the history goes to disk instead (and the growth should not).
 *
 * HISTORY=N in the environment runs it as --history N (old state pruned, in memory too). SNAPSHOTS=DIR writes
 * heap snapshots before and after the blocks there (before/after.heapsnapshot), for bench/heap-diff.ts.
 *
 *   node --expose-gc --import tsx bench/chain-memory.ts [blocks=100] [txsPerBlock=100] [emptyBlocks=1000] [dataDir]
 */
import { join } from 'node:path'
import { writeHeapSnapshot } from 'node:v8'
import { createFeeMarket1559Tx } from '@ethereumjs/tx'
import { createChain } from '../src/chain/create-chain.js'
import { defaultConfig } from '../src/config.js'
import { installEvmPatches } from '../src/evm/patches/install.js'

const [blocks = 100, perBlock = 100, empties = 1000] = process.argv.slice(2, 5).map(Number)
const dataDir = process.argv[5] || undefined
const history = process.env.HISTORY ? Number(process.env.HISTORY) : undefined
const gc = (globalThis as { gc?: () => void }).gc
if (!gc) throw new Error('run with node --expose-gc')

function heapMb(): number {
  gc!()
  gc!()
  return process.memoryUsage().heapUsed / 2 ** 20
}
/** Array-buffer bytes, read after heapMb's GC. */
const buffersMb = () => process.memoryUsage().arrayBuffers / 2 ** 20

await installEvmPatches()
const chain = await createChain(defaultConfig({ quiet: true, dataDir, history }))
/** The heap once a running prune pass is done. */
const settled = async () => {
  await chain.options.pruner?.idle()
  return heapMb()
}
const nonces = chain.accounts.map(() => 0n)
let fresh = 0x10000n // above the precompiles: fresh, empty accounts
const before = heapMb()
const buffersBefore = buffersMb()
const snapshot = (name: string) =>
  process.env.SNAPSHOTS && writeHeapSnapshot(join(process.env.SNAPSHOTS, `${name}.heapsnapshot`))
snapshot('before')
const rssBefore = process.memoryUsage().rss / 2 ** 20
for (let b = 0; b < blocks; b++) {
  for (let i = 0; i < perBlock; i++) {
    const s = i % chain.accounts.length
    const to = `0x${(fresh++).toString(16).padStart(40, '0')}` as const
    const tx = createFeeMarket1559Tx(
      {
        chainId: 196n,
        nonce: nonces[s]++,
        maxFeePerGas: 10n ** 10n,
        maxPriorityFeePerGas: 1n,
        gasLimit: 21_000n,
        to,
        value: 1n,
      },
      { common: chain.common },
    ).sign(chain.accounts[s].privateKey)
    await chain.sendRawTransaction(tx.serialize()).catch((e) => {
      throw new Error(`block ${b} tx ${i}: ${e.message}`)
    })
  }
  // five flashblocks per block, as the timers would make them
  for (let f = 0; f < 5; f++) await chain.buildNow()
  await chain.sealNow()
}
const afterTxs = await settled()
const buffersAfterTxs = buffersMb()
for (let b = 0; b < empties; b++) await chain.sealNow()
const afterEmpty = await settled()
snapshot('after')
const txBlocksMb = afterTxs - before
const perTxKb = (txBlocksMb * 1024) / (blocks * perBlock)
console.log(
  JSON.stringify({
    blocks,
    txsPerBlock: perBlock,
    emptyBlocks: empties,
    heapBeforeMb: +before.toFixed(1),
    heapAfterTxBlocksMb: +afterTxs.toFixed(1),
    heapAfterEmptyBlocksMb: +afterEmpty.toFixed(1),
    perFullBlockMb: +(txBlocksMb / blocks).toFixed(2),
    perTxKb: +perTxKb.toFixed(1),
    arrayBuffersPerTxKb: +(((buffersAfterTxs - buffersBefore) * 1024) / (blocks * perBlock)).toFixed(2),
    perEmptyBlockKb: +(((afterEmpty - afterTxs) * 1024) / Math.max(1, empties)).toFixed(1),
    rssGrowthMb: +(process.memoryUsage().rss / 2 ** 20 - rssBefore).toFixed(1),
    dataDir: dataDir ?? null,
    history: history ?? null,
  }),
)
await chain.stop()
