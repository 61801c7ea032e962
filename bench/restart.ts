/**
 * Restart time with a long history: a data directory with `--blocks` sealed blocks (default 100 000) is
 * built on a fast path (empty blocks written straight into LevelDB in unsynced batches, chained by parent
 * hash on the genesis state), then the service is started on it in this process and timed to its first
 * answer, and again as the CLI in a child process, from the sources (Node and tsx start-up included) and
 * compiled (`npm run build`, what `npx preconf-rpc` runs); the same starts without --data-dir are printed
 * beside them as the baseline. An old block is read
 * back to show the history is there.
 *
 *   nice npx tsx bench/restart.ts [--blocks 100000]
 *
 * Internals on purpose, for the set-up only: building 100 000 blocks through the sequencer would take longer
 * than the restart it measures, so the data directory is written directly with the persistence layer's own
 * codec and keys (src/chain/persist/), blocks assembled as the sequencer assembles them (assembleBlock,
 * adoptCommon). What is timed goes through public surfaces only: startService and the CLI.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { createBlockHeader } from '@ethereumjs/block'
import { createChain } from '../src/chain/create-chain.js'
import { adoptCommon } from '../src/evm/chain-common.js'
import { encodeBlock } from '../src/chain/persist/codec.js'
import { openDataDir } from '../src/chain/persist/db.js'
import { blockKey, hashKey, u64 } from '../src/chain/persist/keys.js'
import { defaultConfig } from '../src/config.js'
import { assembleBlock } from '../src/domain/block-record.js'
import type { BlockRecord } from '../src/domain/types.js'
import { startService } from '../src/service.js'
import { rpc, startOurs, startOursBuilt } from './lib.js'
import { installEvmPatches } from '../src/evm/patches/install.js'

const { values: args } = parseArgs({ options: { blocks: { type: 'string', default: '100000' } } })
const blocks = Number(args.blocks)
const dir = mkdtempSync(join(tmpdir(), 'preconf-restart-'))
const config = defaultConfig({ quiet: true, dataDir: dir })
await installEvmPatches()

async function build(): Promise<void> {
  const chain = await createChain(config)
  const { common } = chain
  let parent: BlockRecord = chain.store.genesis()
  await chain.stop()
  const { db } = await openDataDir(dir, Number(common.chainId()))
  const t0 = performance.now()
  for (let from = 1; from <= blocks; from += 1000) {
    const ops = []
    for (let n = from; n < Math.min(from + 1000, blocks + 1); n++) {
      const header = adoptCommon(
        createBlockHeader(
          {
            number: BigInt(n),
            parentHash: parent.hash,
            stateRoot: parent.header.stateRoot,
            gasLimit: parent.header.gasLimit,
            baseFeePerGas: parent.header.calcNextBaseFee(),
            timestamp: parent.header.timestamp + 1n,
            difficulty: 0n,
          },
          { common, freeze: false },
        ),
        common,
      )
      parent = assembleBlock(header, header.hash(), [], [])
      ops.push({ type: 'put' as const, key: blockKey(parent.number), value: encodeBlock(parent) })
      ops.push({ type: 'put' as const, key: hashKey(parent.hash), value: u64(parent.number) })
    }
    await db.batch(ops)
  }
  await db.close()
  console.log(`built ${blocks} blocks in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
}

async function timed(start: () => Promise<{ url: string; stop: () => Promise<void> }>, label: string) {
  const t0 = performance.now()
  const service = await start()
  const height = BigInt(await rpc(service.url, 'eth_blockNumber'))
  const ms = performance.now() - t0
  const old = (await rpc(service.url, 'eth_getBlockByNumber', [`0x${(BigInt(blocks) / 2n).toString(16)}`, false])) as {
    number: string
  }
  console.log(
    `restart ${label}: ${ms.toFixed(0)} ms to the first answer (head ${height}, block ${BigInt(old.number)} read)`,
  )
  await service.stop()
}

try {
  await build()
  await timed(async () => {
    const s = await startService({ quiet: true, dataDir: dir, port: 0, rateLimit: 0 })
    return { url: s.url, stop: () => s.close() }
  }, 'in process (startService)')
  await timed(() => startOurs(['--data-dir', dir]), 'as a child process (node + tsx + the CLI)')
  await timed(() => startOursBuilt(['--data-dir', dir]), 'as the compiled CLI (bin/preconf-rpc.js, npm run build)')
  // the same child processes without a data directory: what start-up costs without any history
  for (const [start, label] of [
    [startOurs, 'node + tsx'],
    [startOursBuilt, 'compiled CLI'],
  ] as const) {
    const t0 = performance.now()
    await (await start()).stop()
    console.log(`start without --data-dir, ${label}: ${(performance.now() - t0).toFixed(0)} ms (baseline)`)
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}
