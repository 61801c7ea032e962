import { createFeeMarket1559Tx } from '@ethereumjs/tx'
import { bytesToHex } from '@ethereumjs/util'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { TransactionRejectedError } from '../../errors.js'
import type { Chain } from '../chain.js'
import { createChain } from '../create-chain.js'
import { stateAt } from '../../evm/state-views.js'
import { signTx } from '../../../test/support/sign-tx.js'
import { TxPool } from './pool.js'
import { defaultConfig } from '../../config.js'
import { L1_BLOCK_TIME, l1OriginAt } from '../../opstack/l1-origin.js'
import { userTxs } from '../../../test/support/user-txs.js'

const GWEI = 10n ** 9n
let chain: Chain

beforeAll(async () => {
  chain = await createChain(defaultConfig({ quiet: true }))
})
afterAll(() => chain.stop())

async function rejection(promise: Promise<unknown>): Promise<{ code: number; message: string }> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(TransactionRejectedError)
  return { code: (err as TransactionRejectedError).code, message: (err as Error).message }
}

describe('pool admission', () => {
  test('rejects a transaction whose nonce is too low', async () => {
    await chain.sendRawTransaction(await signTx(chain, 0, { nonce: 0 }))
    await chain.mine()
    expect(await rejection(chain.sendRawTransaction(await signTx(chain, 0, { nonce: 0, value: 5n })))).toEqual({
      code: -32000,
      message: 'nonce too low',
    })
  })

  test('rejects a transaction the sender cannot pay for', async () => {
    const raw = await signTx(chain, 1, { nonce: 0, value: 20_000n * 10n ** 18n })
    expect((await rejection(chain.sendRawTransaction(raw))).message).toBe('insufficient funds for gas * price + value')
  })

  test('rejects a transaction with less gas than its intrinsic cost', async () => {
    const raw = await signTx(chain, 1, { nonce: 0, gas: 20_999n })
    expect((await rejection(chain.sendRawTransaction(raw))).message).toBe('intrinsic gas too low')
  })

  test('rejects a transaction with more gas than a block holds', async () => {
    const raw = await signTx(chain, 1, { nonce: 0, gas: defaultConfig().gasLimit + 1n })
    expect((await rejection(chain.sendRawTransaction(raw))).message).toBe('exceeds block gas limit')
  })

  test('rejects a transaction with more gas than a block leaves after its L1-info deposit, as it could never be built', async () => {
    const own = await createChain(defaultConfig({ quiet: true }))
    try {
      const gasLimit = own.store.latest().header.gasLimit
      // both blocks inside one L1 block's 12 s, so the second's L1-info deposit changes no more storage than the
      // first's (a new L1 origin costs more gas, and wall time crossing one under load made this test flaky)
      const first = l1OriginAt(own.store.latest().header.timestamp).timestamp + L1_BLOCK_TIME
      await own.devNode.setNextBlockTimestamp(first)
      const opened = await own.buildNow() // index 0: the L1-info deposit alone
      const openingGas = opened.executed.receipts[0].gasUsed
      // fits the gas limit, but not beside the L1-info deposit every OP block opens with: kept, it would wait
      // for ever and hold back the sender's later nonces
      const raw = await signTx(own, 1, { nonce: 0, gas: gasLimit - openingGas + 1n })
      expect((await rejection(own.sendRawTransaction(raw))).message).toBe('exceeds block gas limit')
      const most = await own.sendRawTransaction(await signTx(own, 1, { nonce: 0, gas: gasLimit - openingGas }))
      const next = await own.sendRawTransaction(await signTx(own, 1, { nonce: 1 }))
      await own.sealNow()
      await own.devNode.setNextBlockTimestamp(first + 1n)
      const built = await own.buildNow()
      const why = `block 1 opened with ${openingGas} gas, block 2 with ${built.executed.receipts[0].gasUsed}`
      expect(
        built.executed.txs.slice(1).map((t) => bytesToHex(t.hash)),
        why,
      ).toEqual([most, next].map(bytesToHex))
      expect(own.pool.size).toBe(0)
    } finally {
      await own.stop()
    }
  })

  test('rejects a fee cap below the base fee', async () => {
    const raw = await signTx(chain, 1, { nonce: 0, maxFeePerGas: 1000n, maxPriorityFeePerGas: 1n })
    expect((await rejection(chain.sendRawTransaction(raw))).message).toBe('max fee per gas less than block base fee')
  })

  test('rejects a transaction signed for another chain', async () => {
    for (const type of ['eip1559', 'legacy'] as const) {
      const raw = await signTx(chain, 1, { nonce: 0, chainId: 1, type })
      expect((await rejection(chain.sendRawTransaction(raw))).message).toBe('invalid chain id')
    }
  })

  test('rejects a transaction whose signature recovers no sender', async () => {
    const tx = createFeeMarket1559Tx(
      {
        chainId: 196n,
        nonce: 0n,
        maxFeePerGas: 10n * GWEI,
        maxPriorityFeePerGas: GWEI,
        gasLimit: 21_000n,
        to: bytesToHex(chain.accounts[2].address),
        v: 0n,
        r: 0n,
        s: 1n,
      },
      { common: chain.common },
    )
    expect((await rejection(chain.sendRawTransaction(tx.serialize()))).message).toBe('invalid sender')
  })

  test('rejects the same transaction twice as already known', async () => {
    const raw = await signTx(chain, 2, { nonce: 0, value: 1n })
    await chain.sendRawTransaction(raw)
    expect((await rejection(chain.sendRawTransaction(raw))).message).toBe('already known')
    await chain.mine()
  })

  test('replaces a transaction only with a 10% bump of both fee caps', async () => {
    const first = await signTx(chain, 4, {
      nonce: 0,
      value: 1n,
      maxFeePerGas: 100n * GWEI,
      maxPriorityFeePerGas: 10n * GWEI,
    })
    await chain.sendRawTransaction(first)
    const cheap = await signTx(chain, 4, {
      nonce: 0,
      value: 2n,
      maxFeePerGas: 109n * GWEI,
      maxPriorityFeePerGas: 11n * GWEI,
    })
    expect((await rejection(chain.sendRawTransaction(cheap))).message).toBe('replacement transaction underpriced')
    const tipOnly = await signTx(chain, 4, {
      nonce: 0,
      value: 2n,
      maxFeePerGas: 110n * GWEI,
      maxPriorityFeePerGas: 10n * GWEI,
    })
    expect((await rejection(chain.sendRawTransaction(tipOnly))).message).toBe('replacement transaction underpriced')
    const enough = await signTx(chain, 4, {
      nonce: 0,
      value: 3n,
      maxFeePerGas: 110n * GWEI,
      maxPriorityFeePerGas: 11n * GWEI,
    })
    const hash = await chain.sendRawTransaction(enough)
    const block = await chain.mine()
    expect(userTxs(block).map((t) => bytesToHex(t.hash))).toEqual([bytesToHex(hash)])
    expect(userTxs(block)[0].tx.value).toBe(3n)
  })

  test('answers txpool is full past the total and per-sender limits', async () => {
    const head = {
      state: stateAt(chain.vm, chain.store.latest().header.stateRoot),
      baseFee: GWEI,
      gasLimit: 30_000_000n,
    }
    const small = new TxPool(chain.common, head, { maxTotal: 2 })
    await small.add(await signTx(chain, 5, { nonce: 0 }))
    await small.add(await signTx(chain, 6, { nonce: 0 }))
    expect((await rejection(small.add(await signTx(chain, 7, { nonce: 0 })))).message).toBe('txpool is full')
    const perSender = new TxPool(chain.common, head, { maxPerSender: 1 })
    await perSender.add(await signTx(chain, 5, { nonce: 0 }))
    expect((await rejection(perSender.add(await signTx(chain, 5, { nonce: 1 })))).message).toBe('txpool is full')
  })

  test('checks a sender at the head that is current when it decides, not at one a flashblock replaced mid-read', async () => {
    const own = await createChain(defaultConfig({ quiet: true }))
    try {
      const before = {
        state: stateAt(own.vm, own.store.latest().header.stateRoot),
        baseFee: GWEI,
        gasLimit: 30_000_000n,
      }
      await own.sendRawTransaction(await signTx(own, 0, { nonce: 0 }))
      await own.mine()
      const after = {
        state: stateAt(own.vm, own.store.latest().header.stateRoot),
        baseFee: GWEI,
        gasLimit: 30_000_000n,
      }
      const pool = new TxPool(own.common, before)
      const admission = pool.add(await signTx(own, 0, { nonce: 0, value: 9n }))
      // the flashblock that used nonce 0 lands while the pool is still reading the sender's account
      pool.setHead(after)
      expect((await rejection(admission)).message).toBe('nonce too low')
    } finally {
      await own.stop()
    }
  })

  test("still admits the nonce a full sender's queued transactions wait for, so they are not stranded", async () => {
    const head = {
      state: stateAt(chain.vm, chain.store.latest().header.stateRoot),
      baseFee: GWEI,
      gasLimit: 30_000_000n,
    }
    const pool = new TxPool(chain.common, head, { maxTotal: 2, maxPerSender: 2 })
    await pool.add(await signTx(chain, 5, { nonce: 1 }))
    await pool.add(await signTx(chain, 5, { nonce: 2 }))
    expect((await rejection(pool.add(await signTx(chain, 5, { nonce: 3 })))).message).toBe('txpool is full')
    expect((await rejection(pool.add(await signTx(chain, 6, { nonce: 0 })))).message).toBe('txpool is full')
    await pool.add(await signTx(chain, 5, { nonce: 0 }))
    expect(pool.content().pending[0]?.txs.map((t) => t.tx.nonce)).toEqual([0n, 1n, 2n])
  })
})

describe('pool ordering', () => {
  test('queues a future nonce and promotes it when the gap fills', async () => {
    const sender = chain.accounts[8].address
    const later = await chain.sendRawTransaction(await signTx(chain, 8, { nonce: 1, value: 1n }))
    expect(chain.pool.content().queued.map((q) => bytesToHex(q.sender))).toContain(bytesToHex(sender))
    expect(await chain.pool.pendingNonce(sender)).toBe(0n)
    const skipped = await chain.buildNow()
    expect(userTxs(skipped.executed)).toHaveLength(0)

    const first = await chain.sendRawTransaction(await signTx(chain, 8, { nonce: 0, value: 1n }))
    expect(await chain.pool.pendingNonce(sender)).toBe(2n)
    expect(chain.pool.content().pending.find((p) => bytesToHex(p.sender) === bytesToHex(sender))?.txs).toHaveLength(2)
    const fb = await chain.buildNow()
    expect(fb.executed.txs.map((t) => bytesToHex(t.hash))).toEqual([bytesToHex(first), bytesToHex(later)])
    expect(chain.pool.size).toBe(0)
    await chain.sealNow()
  })

  test('puts the better-paying sender first and keeps each sender in nonce order', async () => {
    const low = await chain.sendRawTransaction(await signTx(chain, 9, { nonce: 0, maxPriorityFeePerGas: GWEI }))
    const high0 = await chain.sendRawTransaction(await signTx(chain, 3, { nonce: 0, maxPriorityFeePerGas: 3n * GWEI }))
    const high1 = await chain.sendRawTransaction(await signTx(chain, 3, { nonce: 1, maxPriorityFeePerGas: 2n * GWEI }))
    const block = await chain.mine()
    expect(userTxs(block).map((t) => bytesToHex(t.hash))).toEqual([high0, high1, low].map(bytesToHex))
  })

  test('drops a transaction that can no longer pay when it executes, and says so', async () => {
    const sender = chain.accounts[7]
    const balance = await (await chain.resolverFor('general').state('latest'))!.balance(sender.address)
    // gas at the fee cap plus room for the OP Stack L1 data fee (a few gwei here)
    const fee = 21_000n * 10n * GWEI + 10n ** 15n
    const drain = await chain.sendRawTransaction(await signTx(chain, 7, { nonce: 0, value: balance - fee }))
    const broke = await chain.sendRawTransaction(await signTx(chain, 7, { nonce: 1, value: 10n ** 18n }))
    const dropped: string[] = []
    const off = chain.on('droppedTransaction', (tx, reason) => dropped.push(`${bytesToHex(tx.hash)} ${reason}`))
    const block = await chain.mine()
    off()
    expect(userTxs(block).map((t) => bytesToHex(t.hash))).toEqual([bytesToHex(drain)])
    expect(dropped).toHaveLength(1)
    expect(dropped[0]).toContain(bytesToHex(broke))
    expect(chain.pool.get(broke)).toBeUndefined()
  })
})
