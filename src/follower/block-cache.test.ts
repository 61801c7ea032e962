import { createBlockHeader } from '@ethereumjs/block'
import { createTx } from '@ethereumjs/tx'
import { hexToBytes } from '@ethereumjs/util'
import { describe, expect, test } from 'vitest'
import { assembleBlock } from '../domain/block-record.js'
import { createChainCommon } from '../evm/chain-common.js'
import type { BlockRecord, TxRecord } from '../domain/types.js'
import { BlockCache } from './block-cache.js'

const common = createChainCommon({ chainId: 196, gasLimit: 30_000_000n, baseFee: 1_000_000_000n })

/** A chain of blocks from `parent`; `salt` makes a sibling branch (another extraData, so other hashes). */
function chain(count: number, parent?: BlockRecord, salt = 0, tx?: TxRecord): BlockRecord[] {
  const out: BlockRecord[] = []
  let prev = parent
  for (let i = 0; i < count; i++) {
    const header = createBlockHeader(
      {
        number: prev ? prev.number + 1n : 0n,
        parentHash: prev?.hash,
        extraData: new Uint8Array([salt]),
        gasLimit: 30_000_000n,
        baseFeePerGas: 1_000_000_000n,
        timestamp: BigInt(i),
      },
      { common },
    )
    const txs = tx && i === 0 ? [tx] : []
    const receipts = txs.map(() => ({
      type: 2,
      status: 1 as const,
      gasUsed: 21_000n,
      cumulativeGasUsed: 21_000n,
      effectiveGasPrice: 1n,
      logsBloom: new Uint8Array(256),
      logs: [],
      firstLogIndex: 0,
    }))
    prev = assembleBlock(header, header.hash(), txs, receipts)
    out.push(prev)
  }
  return out
}

const DEV0_KEY = hexToBytes('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')

describe('BlockCache', () => {
  test('keeps the most recent `depth` blocks and answers by number, hash and range within them', () => {
    const cache = new BlockCache(4)
    const blocks = chain(10)
    for (const b of blocks) cache.append(b)
    expect(cache.size).toBe(4)
    expect(cache.oldest()!.number).toBe(6n)
    expect(cache.latest()).toBe(blocks[9])
    expect(cache.byNumber(5n)).toBeUndefined()
    expect(cache.byNumber(7n)).toBe(blocks[7])
    expect(cache.blockByHash(blocks[8].hash)).toBe(blocks[8])
    expect(cache.blockByHash(blocks[2].hash)).toBeUndefined()
    expect([...cache.range(0n, 7n)].map((b) => b.number)).toEqual([6n, 7n])
    expect([...cache.range(8n, 100n)].map((b) => b.number)).toEqual([8n, 9n])
    expect(cache.covers(5n)).toBe(false)
    expect(cache.covers(9n)).toBe(true)
  })

  test('refuses a block that does not extend the head by number and parent hash', () => {
    const cache = new BlockCache()
    const [genesis, one, two] = chain(3)
    cache.append(genesis)
    expect(() => cache.append(two)).toThrow(/does not follow/)
    const sibling = chain(1, genesis, 7)[0]
    cache.append(sibling)
    expect(() => cache.append(two)).toThrow(/not a child/)
    expect(one.number).toBe(sibling.number)
  })

  test('a rewind returns the replaced blocks in order and forgets their transactions', () => {
    const tx = createTx(
      { type: 2, chainId: 196n, gasLimit: 21_000n, maxFeePerGas: 10n ** 10n, to: new Uint8Array(20) },
      { common },
    ).sign(DEV0_KEY)
    const record: TxRecord = { hash: tx.hash(), tx, sender: tx.getSenderAddress().bytes, raw: tx.serialize() }
    const cache = new BlockCache()
    const base = chain(3)
    for (const b of base) cache.append(b)
    const old = chain(3, base[2], 0, record)
    for (const b of old) cache.append(b)
    expect(cache.tx(record.hash)?.block).toBe(old[0])
    expect(cache.tx(record.hash)).toMatchObject({ index: 0, pending: false, receipt: old[0].receipts[0] })

    const removed = cache.rewindTo(2n)
    expect(removed).toEqual(old)
    expect(cache.tx(record.hash)).toBeUndefined()
    expect(cache.blockByHash(old[1].hash)).toBeUndefined()
    for (const b of chain(2, base[2], 9)) cache.append(b)
    expect(cache.latest()!.number).toBe(4n)
    expect(cache.clear().map((b) => b.number)).toEqual([0n, 1n, 2n, 3n, 4n])
    expect(cache.latest()).toBeUndefined()
  })
})
