import { bytesToHex } from '@ethereumjs/util'
import { afterEach, describe, expect, test } from 'vitest'
import type { Chain } from './chain.js'
import { createChain } from './create-chain.js'
import { signTx } from '../../test/support/sign-tx.js'
import type { BlockRecord, Flashblock } from '../domain/types.js'
import { defaultConfig } from '../config.js'

let chain: Chain | undefined
afterEach(async () => {
  await chain?.stop()
  chain = undefined
})

function nextBlocks(c: Chain, count: number): Promise<BlockRecord[]> {
  const blocks: BlockRecord[] = []
  return new Promise((resolve) => {
    const off = c.on('block', (b) => {
      blocks.push(b)
      if (blocks.length === count) {
        off()
        resolve(blocks)
      }
    })
  })
}

describe('the sequencer on its timers', () => {
  test('publishes flashblocks 0, 1, 2... per block and seals each block as its last flashblock', async () => {
    chain = await createChain(defaultConfig({ quiet: true, blockTimeMs: 300, flashblockIntervalMs: 100 }))
    const c = chain
    const flashblocks: Flashblock[] = []
    c.on('flashblock', (fb) => flashblocks.push(fb))
    c.start()
    const [first] = await nextBlocks(c, 1)
    const hash = await c.sendRawTransaction(await signTx(c, 0, { nonce: 0, value: 1n }))
    const preconfirmed = await c.waitForReceipt(hash, 5_000)
    expect(preconfirmed?.pending).toBe(true)
    const blocks = [first, ...(await nextBlocks(c, 2))]
    await c.stop()

    for (const block of blocks) {
      const own = flashblocks.filter((fb) => fb.metadata.blockNumber === block.number)
      expect(own.map((fb) => fb.index)).toEqual(own.map((_, i) => i))
      expect(own[0].base?.blockNumber).toBe(block.number)
      expect(own.slice(1).every((fb) => fb.base === undefined)).toBe(true)
      expect(new Set(own.map((fb) => bytesToHex(fb.payloadId))).size).toBe(1)
      // a feed consumer concatenating the diffs rebuilds the block exactly
      expect(own.flatMap((fb) => fb.diff.transactions.map(bytesToHex))).toEqual(block.txs.map((t) => bytesToHex(t.raw)))
      expect(bytesToHex(own.at(-1)!.diff.blockHash)).toBe(bytesToHex(block.hash))
    }
    const payloads = new Set(flashblocks.map((fb) => bytesToHex(fb.payloadId)))
    expect(payloads.size).toBeGreaterThanOrEqual(3)
    const canonical = (await c.resolverFor('flashblocks').tx(hash))!
    expect(canonical.pending).toBe(false)
    expect(canonical.receipt).toEqual(preconfirmed!.receipt)
    expect(blocks.map((b) => b.number)).toEqual([blocks[0].number, blocks[0].number + 1n, blocks[0].number + 2n])
    expect(c.sequencer.stats.summary().flashblocks).toBe(flashblocks.length)
  })

  test('times out waiting for a receipt of a transaction that never executes', async () => {
    chain = await createChain(defaultConfig({ quiet: true }))
    const hash = await chain.sendRawTransaction(await signTx(chain, 0, { nonce: 5, value: 1n }))
    expect(await chain.waitForReceipt(hash, 50)).toBeUndefined()
    // still waiting for nonces 0-4, not dropped
    expect(chain.pool.size).toBe(1)
  })
})
