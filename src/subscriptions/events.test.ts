import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import { encodeDeployData, keccak256, type Hex } from 'viem'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import type { Chain } from '../chain/chain.js'
import { createChain } from '../chain/create-chain.js'
import { signTx } from '../../test/support/sign-tx.js'
import { decodeFrame } from '../feed/codec.js'
import { FeedPublisher } from '../feed/publisher.js'
import { isEndOfBlock, type FeedMessage, type FlashblocksPayload } from '../feed/wire.js'
import { connectChain } from './events.js'
import { SubscriptionHub } from './hub.js'
import { ALL_KINDS } from './kinds/index.js'
import { testToken } from '../../test/support/fixtures.js'
import type { Endpoint } from '../../generated/methods.js'
import type { Subscriber } from './types.js'
import { defaultConfig } from '../config.js'

/** A connection that keeps every notification it is sent, by subscription id. */
class Inbox implements Subscriber {
  readonly frames: { subscription: string; result: unknown }[] = []
  constructor(readonly endpoint: Endpoint) {}
  send(frame: string): void {
    const message = JSON.parse(frame) as { method: string; params: { subscription: string; result: unknown } }
    expect(message.method).toBe('eth_subscription')
    this.frames.push(message.params)
  }
  of(id: string): unknown[] {
    return this.frames.filter((f) => f.subscription === id).map((f) => f.result)
  }
}

let chain: Chain
let hub: SubscriptionHub
let publisher: FeedPublisher
let feed: FeedMessage[]
let disconnect: () => void

beforeEach(async () => {
  chain = await createChain(defaultConfig({ quiet: true }))
  hub = new SubscriptionHub(ALL_KINDS)
  publisher = new FeedPublisher()
  feed = []
  publisher.add({ send: (frame) => feed.push(decodeFrame(frame)) }, 'json')
  disconnect = connectChain({
    events: chain.events,
    hub,
    publisher,
    pendingBlock: () => chain.pending.current()?.block,
    onError: (err) => {
      throw err
    },
  })
})

afterEach(async () => {
  disconnect()
  await chain.stop()
})

const deployData = (): Uint8Array =>
  hexToBytes(encodeDeployData({ abi: testToken.abi, bytecode: testToken.bytecode, args: [10n ** 24n] }))

describe('chain events to the feed', () => {
  test('each flashblock becomes one payload and the sealed block one end-of-block message', async () => {
    await chain.buildNow()
    await chain.sendRawTransaction(await signTx(chain, 0, { nonce: 0, to: null, gas: 2_000_000n, data: deployData() }))
    await chain.sendRawTransaction(await signTx(chain, 1, { nonce: 0, value: 5n }))
    await chain.buildNow()
    await chain.sendRawTransaction(await signTx(chain, 1, { nonce: 1, value: 6n, type: 'legacy' }))
    await chain.buildNow()
    const sealed = await chain.sealNow()

    const payloads = feed.filter((m): m is FlashblocksPayload => !isEndOfBlock(m))
    expect(payloads.map((m) => m.index)).toEqual([0, 1, 2])
    expect(feed.at(-1)).toEqual({ payload_id: payloads[0]!.payload_id })
    expect(new Set(payloads.map((m) => m.payload_id)).size).toBe(1)
    expect(payloads[0]!.base).toMatchObject({
      block_number: '0x1',
      gas_limit: `0x${sealed.header.gasLimit.toString(16)}`,
    })
    expect(payloads.slice(1).every((m) => m.base === undefined)).toBe(true)
    expect(payloads.map((m) => m.diff.transactions.length)).toEqual([1, 2, 1]) // index 0: the L1-info deposit
    const rebuilt = payloads.flatMap((m) => m.diff.transactions)
    expect(rebuilt.map((raw) => keccak256(raw))).toEqual(sealed.txs.map((t) => bytesToHex(t.hash)))
    expect(payloads.at(-1)!.diff.block_hash).toBe(bytesToHex(sealed.hash))
    expect(payloads.every((m) => m.metadata.block_number === 1)).toBe(true)
    // op-alloy tags a deposit's receipt `Deposit`, with its nonce and receipt version
    expect(payloads[0]!.metadata.receipts[bytesToHex(sealed.txs[0]!.hash) as Hex]).toEqual({
      Deposit: expect.objectContaining({ status: '0x1', depositNonce: '0x0', depositReceiptVersion: '0x1', logs: [] }),
    })
    const deployHash = bytesToHex(sealed.txs[1]!.hash)
    expect(payloads[1]!.metadata.receipts[deployHash as Hex]).toEqual({
      Eip1559: {
        status: '0x1',
        cumulativeGasUsed: `0x${sealed.receipts[1]!.cumulativeGasUsed.toString(16)}`,
        logs: [expect.objectContaining({ address: bytesToHex(sealed.receipts[1]!.contractAddress!) })],
      },
    })
    expect(Object.keys(payloads[2]!.metadata.receipts[bytesToHex(sealed.txs[3]!.hash) as Hex]!)).toEqual(['Legacy'])
  })
})

describe('chain events nobody subscribed to', () => {
  test('a flashblock makes no pending view until someone subscribes; the next one then reaches them', async () => {
    const own = new SubscriptionHub(ALL_KINDS)
    let views = 0
    const off = connectChain({
      events: chain.events,
      hub: own,
      publisher: new FeedPublisher(),
      pendingBlock: () => {
        views++
        return chain.pending.current()?.block
      },
    })
    try {
      await chain.buildNow()
      await chain.buildNow()
      expect(views).toBe(0)
      const inbox = new Inbox('flashblocks')
      const flash = own.subscribe(inbox, ['newFlashblocks'])
      await chain.buildNow()
      expect(views).toBe(1)
      expect(inbox.of(flash)).toHaveLength(1)
    } finally {
      off()
    }
  })
})

describe('chain events to subscriptions', () => {
  test('newFlashblocks gets the accumulated pending block at each flashblock; newHeads the sealed header', async () => {
    const inbox = new Inbox('flashblocks')
    const flash = hub.subscribe(inbox, ['newFlashblocks'])
    const heads = hub.subscribe(inbox, ['newHeads'])
    await chain.buildNow()
    await chain.sendRawTransaction(await signTx(chain, 1, { nonce: 0, value: 5n }))
    await chain.buildNow()
    await chain.sendRawTransaction(await signTx(chain, 2, { nonce: 0, value: 5n }))
    await chain.buildNow()
    const sealed = await chain.sealNow()
    const blocks = inbox.of(flash) as {
      hash: string
      number: string
      transactions: { hash: string; blockHash: string }[]
    }[]
    expect(blocks.map((b) => b.transactions.length)).toEqual([1, 2, 3]) // after the L1-info deposit
    expect(blocks.every((b) => b.number === '0x1')).toBe(true)
    expect(blocks[2]!.hash).toBe(bytesToHex(sealed.hash))
    expect(blocks[2]!.transactions.every((t) => t.blockHash === blocks[2]!.hash)).toBe(true)
    const payloads = feed.filter((m): m is FlashblocksPayload => !isEndOfBlock(m))
    expect(blocks.map((b) => b.hash)).toEqual(payloads.map((m) => m.diff.block_hash))
    expect(inbox.of(heads)).toEqual([expect.objectContaining({ hash: bytesToHex(sealed.hash), number: '0x1' })])
  })

  test('pendingLogs and logs send each log once, pending ones with the pending position', async () => {
    const inbox = new Inbox('flashblocks')
    const pendingLogs = hub.subscribe(inbox, ['pendingLogs'])
    const canonicalLogs = hub.subscribe(inbox, [
      'logs',
      { topics: [keccak256(new TextEncoder().encode('Transfer(address,address,uint256)'))] },
    ])
    const none = hub.subscribe(inbox, ['pendingLogs', { address: '0x0000000000000000000000000000000000000001' }])
    await chain.buildNow()
    await chain.sendRawTransaction(await signTx(chain, 0, { nonce: 0, to: null, gas: 2_000_000n, data: deployData() }))
    await chain.buildNow()
    await chain.buildNow()
    const sealed = await chain.sealNow()
    const expected = {
      transactionHash: bytesToHex(sealed.txs[1]!.hash), // after the L1-info deposit
      logIndex: '0x0',
      blockNumber: '0x1',
      blockHash: bytesToHex(sealed.hash),
    }
    expect(inbox.of(pendingLogs)).toEqual([expect.objectContaining(expected)])
    expect(inbox.of(canonicalLogs)).toEqual([expect.objectContaining(expected)])
    expect(inbox.of(none)).toEqual([])
  })

  test('newFlashblockTransactions and newPendingTransactions report new transactions once', async () => {
    const inbox = new Inbox('flashblocks')
    const hashes = hub.subscribe(inbox, ['newFlashblockTransactions'])
    const full = hub.subscribe(inbox, ['newFlashblockTransactions', true])
    const pool = hub.subscribe(inbox, ['newPendingTransactions'])
    const poolFull = hub.subscribe(inbox, ['newPendingTransactions', true])
    await chain.buildNow()
    const a = bytesToHex(await chain.sendRawTransaction(await signTx(chain, 1, { nonce: 0, value: 5n })))
    await chain.buildNow()
    const b = bytesToHex(await chain.sendRawTransaction(await signTx(chain, 1, { nonce: 1, value: 5n })))
    await chain.buildNow()
    await chain.buildNow()
    // the block's L1-info deposit is a new transaction of index 0 too
    const l1Info = bytesToHex(chain.pending.current()!.block.txs[0]!.hash)
    expect(inbox.of(hashes)).toEqual([l1Info, a, b])
    expect(inbox.of(full)).toEqual([
      expect.objectContaining({ hash: l1Info, type: '0x7e', depositReceiptVersion: '0x1' }),
      expect.objectContaining({ hash: a, status: '0x1', gasUsed: '0x5208', logs: [] }),
      expect.objectContaining({ hash: b, transactionIndex: '0x2', status: '0x1' }),
    ])
    expect(inbox.of(pool)).toEqual([a, b])
    expect(inbox.of(poolFull)).toEqual([
      expect.objectContaining({ hash: a, blockHash: null }),
      expect.objectContaining({ hash: b }),
    ])
  })

  test("X Layer's flashblocks kind filters transactions by sender, recipient or log emitter", async () => {
    const inbox = new Inbox('flashblocks')
    const watched = bytesToHex(chain.accounts[5]!.address)
    const headers = hub.subscribe(inbox, ['flashblocks', { headerInfo: true }])
    const byAddress = hub.subscribe(inbox, [
      'flashblocks',
      { subTxFilter: { subscribeAddresses: [watched], txReceipt: true } },
    ])
    await chain.buildNow()
    await chain.sendRawTransaction(await signTx(chain, 1, { nonce: 0, value: 5n }))
    const toWatched = bytesToHex(
      await chain.sendRawTransaction(await signTx(chain, 2, { nonce: 0, value: 5n, to: chain.accounts[5]!.address })),
    )
    const fromWatched = bytesToHex(await chain.sendRawTransaction(await signTx(chain, 5, { nonce: 0, value: 5n })))
    await chain.buildNow()
    const events = inbox.of(headers) as { type: string; header?: { hash: string } }[]
    expect(events.map((e) => e.type)).toEqual(['header', 'header'])
    const txEvents = inbox.of(byAddress) as {
      type: string
      transaction: { txHash: string; txData?: unknown; receipt?: { transactionHash: string } }
    }[]
    expect(txEvents.map((e) => e.transaction.txHash).sort()).toEqual([toWatched, fromWatched].sort())
    for (const e of txEvents) {
      expect(e.type).toBe('transaction')
      expect(e.transaction.txData).toBeUndefined()
      expect(e.transaction.receipt?.transactionHash).toBe(e.transaction.txHash)
    }
  })
})
