import { Address, bytesToHex, createAccount } from '@ethereumjs/util'
import { afterEach, describe, expect, test } from 'vitest'
import type { Chain } from './chain.js'
import { createChain } from './create-chain.js'
import { signTx } from '../../test/support/sign-tx.js'
import type { BlockRecord, Flashblock } from '../domain/types.js'
import { defaultConfig } from '../config.js'
import { until } from '../../test/support/wait-for.js'
import { FlashBuilder } from '../evm/flash-builder.js'
import { decodeTransaction } from './pool/admission.js'
import { lateTimers } from '../../test/support/stepped-clock.js'

let chain: Chain | undefined
afterEach(async () => {
  await chain?.stop()
  chain = undefined
})

describe('the sequencer on its timers', () => {
  test('publishes flashblocks 0, 1, 2... per block and seals each block as its last flashblock', async () => {
    chain = await createChain(defaultConfig({ quiet: true, blockTimeMs: 300, flashblockIntervalMs: 100 }))
    const c = chain
    const flashblocks: Flashblock[] = []
    const blocks: BlockRecord[] = []
    c.on('flashblock', (fb) => flashblocks.push(fb))
    c.on('block', (b) => blocks.push(b))
    c.start()
    await until(() => blocks.length > 0, 'the first block')
    const hash = await c.sendRawTransaction(await signTx(c, 0, { nonce: 0, value: 1n }))
    const preconfirmed = await c.waitForReceipt(hash, 15_000)
    expect(preconfirmed?.pending).toBe(true)
    expect(await c.waitForReceipt(hash, 15_000, { preconfirmed: false })).toBeDefined()
    await until(() => blocks.length >= 3, 'three blocks')
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
    expect(blocks.map((b) => b.number)).toEqual(blocks.map((_, i) => blocks[0].number + BigInt(i)))
    expect(c.sequencer.stats.summary().flashblocks).toBe(flashblocks.length)
  })

  test('builds a pool transaction even when every flashblock starts past its execution deadline', async () => {
    // a 1 ms interval: any flashblock takes longer than that, so every tick after the first starts late by
    // more than the share of the interval it may spend starting transactions (a machine too busy for the
    // chain's cadence, which a block that stays open keeps from ever re-anchoring)
    chain = await createChain(defaultConfig({ quiet: true, blockTimeMs: 3_600_000, flashblockIntervalMs: 1 }))
    const c = chain
    const built: Flashblock[] = []
    c.on('flashblock', (fb) => built.push(fb))
    c.start()
    await until(() => built.length > 0, 'the first flashblock')
    const hash = bytesToHex(await c.sendRawTransaction(await signTx(c, 0, { nonce: 0, value: 1n })))
    const sentAt = built.length
    const includes = (fb: Flashblock) => fb.executed.txs.some((t) => bytesToHex(t.hash) === hash)
    // counted in flashblocks, not in time: the next one after admission takes it
    await until(() => built.length >= sentAt + 20 || built.some(includes), 'the transaction or 20 flashblocks')
    await c.stop()
    // the next flashblock, or the one after if one was being built while the pool admitted it
    expect([0, 1]).toContain(built.slice(sentAt).findIndex(includes))
    expect(c.pool.size).toBe(0)
    expect(c.sequencer.openBlock).toBe(built[0].metadata.blockNumber)
  })

  test('a sequencer whose timers all fire late still builds the pool’s transactions into its flashblocks', async () => {
    // 80 ms late on a 100 ms interval: past the share of it a flashblock may spend starting transactions
    const clock = lateTimers(80)
    try {
      // one long block: every flashblock after the first is a tick of the interval's timer
      chain = await createChain(defaultConfig({ quiet: true, blockTimeMs: 600_000, flashblockIntervalMs: 100 }))
      const c = chain
      c.start()
      await new Promise((resolve) => c.on('flashblock', resolve))
      const hash = await c.sendRawTransaction(await signTx(c, 0, { nonce: 0, value: 1n }))
      const preconfirmed = await c.waitForReceipt(hash, 15_000, { preconfirmed: true })
      expect(preconfirmed?.pending).toBe(true)
    } finally {
      clock.restore()
    }
  })

  test('times out waiting for a receipt of a transaction that never executes', async () => {
    chain = await createChain(defaultConfig({ quiet: true }))
    const hash = await chain.sendRawTransaction(await signTx(chain, 0, { nonce: 5, value: 1n }))
    expect(await chain.waitForReceipt(hash, 50)).toBeUndefined()
    // still waiting for nonces 0-4, not dropped
    expect(chain.pool.size).toBe(1)
  })
})

/** A flash builder of the block after `c`'s latest, outside its sequencer. */
function builderOn(c: Chain): FlashBuilder {
  return new FlashBuilder(c.vm, c.store.latest(), {
    timestamp: c.store.latest().header.timestamp + 1n,
    coinbase: new Uint8Array(20),
    prevRandao: new Uint8Array(32),
    payloadId: new Uint8Array(8),
  })
}

describe("the flash builder's execution deadline", () => {
  test('a flashblock that starts past its deadline still starts one user transaction, and no second', async () => {
    chain = await createChain(defaultConfig({ quiet: true }))
    const c = chain
    const builder = builderOn(c)
    const txs = await Promise.all(
      [0, 1].map(async (from) => decodeTransaction(await signTx(c, from, { nonce: 0, value: 1n }), c.common)),
    )
    // deadline 0: long past when the flashblock begins
    const { flashblock, skipped } = await builder.flash(txs, { deadline: 0 })
    expect(flashblock.executed.txs.map((t) => bytesToHex(t.hash))).toEqual([bytesToHex(txs[0].hash)])
    expect(skipped).toEqual([])
    const next = await builder.flash(txs.slice(1), { deadline: 0 })
    expect(next.flashblock.executed.txs.map((t) => bytesToHex(t.hash))).toEqual([bytesToHex(txs[1].hash)])
  })
})

describe('the flash builder told every candidate must run (a follower)', () => {
  test('stops at the first candidate left out, and tries none after it', async () => {
    chain = await createChain(defaultConfig({ quiet: true }))
    const c = chain
    const builder = builderOn(c)
    // a nonce from the future does not run on this state; the next sender's transaction would
    const [gap, good] = await Promise.all(
      [
        [0, 5],
        [1, 0],
      ].map(async ([from, nonce]) => decodeTransaction(await signTx(c, from, { nonce, value: 1n }), c.common)),
    )
    const { flashblock, skipped } = await builder.flash([gap, good], { allOrNothing: true })
    expect(skipped.map((s) => bytesToHex(s.tx.hash))).toEqual([bytesToHex(gap.hash)])
    expect(flashblock.executed.txs).toEqual([])
    // without the option the builder goes on past it, as the sequencer's does
    const next = await builder.flash([gap, good])
    expect(next.flashblock.executed.txs.map((t) => bytesToHex(t.hash))).toEqual([bytesToHex(good.hash)])
  })
})

describe("the flash builder's empty flashblocks", () => {
  test('a flashblock with nothing to run repeats the block so far, and the block seals as if it never came', async () => {
    const [gaps, straight] = await Promise.all([0, 1].map(() => createChain(defaultConfig({ quiet: true }))))
    try {
      const build = async (c: Chain, gapsBetween: number) => {
        const builder = builderOn(c)
        const [first, second] = await Promise.all(
          [0, 1].map(async (from) => decodeTransaction(await signTx(c, from, { nonce: 0, value: 1n }), c.common)),
        )
        const published = [(await builder.flash([first])).flashblock]
        for (let i = 0; i < gapsBetween; i++) published.push((await builder.flash([])).flashblock)
        published.push((await builder.flash([second])).flashblock)
        return { published, block: builder.seal() }
      }
      const withGaps = await build(gaps, 3)
      const without = await build(straight, 0)
      const [opened, ...empty] = withGaps.published.slice(0, 4)
      for (const fb of empty) {
        expect(fb.executed.txs).toEqual([])
        expect(fb.diff.transactions).toEqual([])
        expect(bytesToHex(fb.diff.blockHash)).toBe(bytesToHex(opened.diff.blockHash))
        expect(bytesToHex(fb.diff.stateRoot)).toBe(bytesToHex(opened.diff.stateRoot))
      }
      expect(withGaps.published.map((fb) => fb.index)).toEqual([0, 1, 2, 3, 4])
      // the transaction after the gaps lands in the header a builder without them computes
      const last = withGaps.published.at(-1)!
      expect(bytesToHex(last.diff.blockHash)).toBe(bytesToHex(without.published.at(-1)!.diff.blockHash))
      expect(bytesToHex(last.diff.receiptsRoot)).toBe(bytesToHex(without.published.at(-1)!.diff.receiptsRoot))
      expect(bytesToHex(withGaps.block.hash)).toBe(bytesToHex(without.block.hash))
      expect(bytesToHex(withGaps.block.hash)).not.toBe(bytesToHex(opened.diff.blockHash))
    } finally {
      await Promise.all([gaps.stop(), straight.stop()])
    }
  })

  test('an empty flashblock publishes the balances its state holds, and reads them again once the state moved', async () => {
    chain = await createChain(defaultConfig({ quiet: true }))
    const c = chain
    const builder = builderOn(c)
    const balanceOf = async (address: Uint8Array) =>
      (await c.vm.stateManager.getAccount(new Address(address)))?.balance ?? 0n
    const published = (fb: Flashblock) =>
      new Map(fb.metadata.newAccountBalances.map((b) => [bytesToHex(b.address), b.balance]))
    await builder.flash([decodeTransaction(await signTx(c, 0, { nonce: 0, value: 1n }), c.common)])
    const empty = (await builder.flash([])).flashblock
    expect(empty.metadata.newAccountBalances.length).toBeGreaterThan(0)
    for (const { address, balance } of empty.metadata.newAccountBalances) expect(balance).toBe(await balanceOf(address))
    // the coinbase (builderOn's: the zero address) credited between two flashblocks: a new root
    const coinbase = new Address(new Uint8Array(20))
    const account = (await c.vm.stateManager.getAccount(coinbase)) ?? createAccount({})
    account.balance += 5n
    await c.vm.stateManager.putAccount(coinbase, account)
    const moved = (await builder.flash([])).flashblock
    expect(bytesToHex(moved.diff.stateRoot)).not.toBe(bytesToHex(empty.diff.stateRoot))
    expect(published(moved).get(coinbase.toString())).toBe(published(empty).get(coinbase.toString())! + 5n)
  })
})
