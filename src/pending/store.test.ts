import { bytesToHex } from '@ethereumjs/util'
import { afterEach, describe, expect, test } from 'vitest'
import type { Chain } from '../chain/chain.js'
import { createChain } from '../chain/create-chain.js'
import { signTx } from '../../test/support/sign-tx.js'
import type { Flashblock } from '../domain/types.js'
import { PendingStore } from './store.js'
import { defaultConfig } from '../config.js'

let chain: Chain | undefined
afterEach(async () => {
  await chain?.stop()
  chain = undefined
})

/** Flashblocks 0..count-1 of block 1, each carrying one transfer after index 0. */
async function flashblocksOfOneBlock(c: Chain, count: number): Promise<Flashblock[]> {
  const out: Flashblock[] = [await c.buildNow()]
  for (let i = 1; i < count; i++) {
    await c.sendRawTransaction(await signTx(c, 0, { nonce: i - 1, value: BigInt(i) }))
    out.push(await c.buildNow())
  }
  return out
}

describe('the pending store', () => {
  test('never shows half a flashblock to a reader polling while it is built', async () => {
    chain = await createChain(defaultConfig({ quiet: true }))
    const c = chain
    await c.buildNow()
    for (let i = 0; i < 40; i++)
      await c.sendRawTransaction(await signTx(c, i % 10, { nonce: Math.floor(i / 10), value: 1n }))
    const seen = new Set<number>()
    const problems: string[] = []
    let polling = true
    // a reader made of microtasks interleaves with the builder's own awaits (timers would not: one
    // flashblock never yields to the macrotask queue)
    const reader = (async () => {
      while (polling) {
        const snap = c.pending.current()!
        const { block } = snap
        seen.add(block.txs.length)
        if (block.receipts.length !== block.txs.length) problems.push('receipts and transactions differ in number')
        if (bytesToHex(block.header.hash()) !== bytesToHex(block.hash)) problems.push('hash is not the header hash')
        if (block.header.gasUsed !== (block.receipts.at(-1)?.cumulativeGasUsed ?? 0n))
          problems.push('gas used differs from the receipts')
        if (block.txs.some((tx) => snap.indexOf(tx.hash) === undefined))
          problems.push('a transaction of the block is not indexed')
        await Promise.resolve()
      }
    })()
    const built = c.buildNow().then(() => (polling = false))
    await Promise.all([reader, built])
    expect(problems).toEqual([])
    // the L1-info deposit, then all 40 at once
    expect([...seen].sort((a, b) => a - b)).toEqual([1, 41])
    expect(c.pending.current()!.block.txs).toHaveLength(41)
  })

  test('hands a preconfirmed transaction to the canonical store at sealing without a moment it cannot be found', async () => {
    chain = await createChain(defaultConfig({ quiet: true }))
    const c = chain
    const hash = await c.sendRawTransaction(await signTx(c, 0, { nonce: 0, value: 1n }))
    await c.buildNow()
    const resolver = c.resolverFor('flashblocks')
    expect((await resolver.tx(hash))?.pending).toBe(true)
    let misses = 0
    let lookups = 0
    let polling = true
    const reader = (async () => {
      while (polling) {
        lookups++
        if (!(await resolver.tx(hash))) misses++
        await Promise.resolve()
      }
    })()
    // tx() looks up at the moment it is called: `canonical` is the answer at sealing
    let atSeal: { pendingCleared: boolean; canonical: Promise<boolean> } | undefined
    c.on('block', () => {
      atSeal = {
        pendingCleared: c.pending.current() === undefined,
        canonical: resolver.tx(hash).then((l) => l?.pending === false),
      }
    })
    await c.sealNow()
    await c.buildNow() // index 0 of block 2 replaces the cleared pending block
    polling = false
    await reader
    expect(lookups).toBeGreaterThan(10)
    expect({ ...atSeal, canonical: await atSeal?.canonical }).toEqual({ pendingCleared: true, canonical: true })
    expect(misses).toBe(0)
    expect((await resolver.tx(hash))?.block.number).toBe(1n)
  })

  test('gives preconfirmed receipts the pending number and the pending hash of the newest flashblock', async () => {
    chain = await createChain(defaultConfig({ quiet: true }))
    const fbs = await flashblocksOfOneBlock(chain, 3)
    const first = chain.pending.tx(fbs[1].executed.txs[0].hash)!
    expect(first.block.number).toBe(1n)
    expect(bytesToHex(first.block.hash)).toBe(bytesToHex(fbs[2].diff.blockHash))
    expect(first.block.logs.every((l) => bytesToHex(l.blockHash) === bytesToHex(fbs[2].diff.blockHash))).toBe(true)
  })

  test('an empty flashblock moves the index and keeps the block as it was; the next transaction is in the one after', async () => {
    chain = await createChain(defaultConfig({ quiet: true }))
    const c = chain
    await c.buildNow()
    const before = c.pending.current()!
    const empty = await c.buildNow()
    expect(empty.executed.txs).toEqual([])
    const after = c.pending.current()!
    expect(after.index).toBe(before.index + 1)
    expect(after.block).toBe(before.block)
    await c.sendRawTransaction(await signTx(c, 0, { nonce: 0, value: 1n }))
    const next = await c.buildNow()
    const moved = c.pending.current()!
    expect(moved.block.txs).toHaveLength(before.block.txs.length + 1)
    expect(bytesToHex(moved.block.hash)).toBe(bytesToHex(next.diff.blockHash))
  })

  test('follows the sequence rules: a duplicate is ignored, a gap drops the pending block until the next index 0', async () => {
    chain = await createChain(defaultConfig({ quiet: true }))
    const [fb0, fb1, fb2] = await flashblocksOfOneBlock(chain, 3)
    const store = new PendingStore({ canonicalHeight: () => 0n })
    expect(store.apply(fb1)).toBe(false) // no index 0 yet
    expect(store.apply(fb0)).toBe(true)
    expect(store.apply(fb1)).toBe(true)
    expect(store.current()?.block.txs).toHaveLength(2) // the L1-info deposit and fb1's transaction
    expect(store.apply(fb1)).toBe(false) // duplicate: ignored, the block stays
    expect(store.apply(fb0)).toBe(false)
    expect(store.current()?.index).toBe(1)
    expect(store.apply(fb2)).toBe(true)
    store.clear()
    expect(store.apply(fb2)).toBe(false) // a join in mid-block waits for an index 0
    expect(store.apply(fb0)).toBe(true)
    expect(store.apply(fb2)).toBe(false) // gap
    expect(store.current()).toBeUndefined()
    expect(store.apply(fb0)).toBe(true)
    expect(store.apply({ ...fb1, payloadId: new Uint8Array(8) })).toBe(false) // another block's payload
    expect(store.current()).toBeUndefined()
  })

  test('ignores a stale block and clears when a canonical block reaches the pending height', async () => {
    chain = await createChain(defaultConfig({ quiet: true }))
    const [fb0, fb1] = await flashblocksOfOneBlock(chain, 2)
    const block = await chain.sealNow()
    let height = 1n
    const store = new PendingStore({ canonicalHeight: () => height })
    expect(store.apply(fb0)).toBe(false)
    height = 0n
    expect(store.apply(fb0)).toBe(true)
    expect(store.apply(fb1)).toBe(true)
    expect(store.tx(fb1.executed.txs[0].hash)?.pending).toBe(true)
    store.onCanonical(block)
    expect(store.current()).toBeUndefined()
    expect(store.tx(fb1.executed.txs[0].hash)).toBeUndefined()
  })
})
