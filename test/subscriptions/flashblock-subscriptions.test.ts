import { once } from 'node:events'
import { parseEther, type Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import WebSocket from 'ws'
import { createWsClient, type Subscription, type WsRpcClient } from '../../generated/client.js'
import { decodeFrame } from '../../src/feed/codec.js'
import { isEndOfBlock } from '../../src/feed/wire.js'
import { startService, type RunningService } from '../../src/service.js'
import { devAccount } from '../support/dev-keys.js'
import { testToken } from '../support/fixtures.js'
import { clientsFor, deployTestToken } from '../support/service-clients.js'
import { wsUrlOf } from '../../src/client/ws-url.js'

let service: RunningService
let client: WsRpcClient
let clients: ReturnType<typeof clientsFor>
let token: Hex

const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'

beforeAll(async () => {
  service = await startService({ port: 0, quiet: true, rateLimit: 0 })
  client = await createWsClient(wsUrlOf(service.flashblocksUrl))
  clients = clientsFor(service, service.flashblocksUrl)
  token = await deployTestToken(service)
})

afterAll(async () => {
  await client?.close()
  await service?.close()
})

/** Notifications until one satisfies `done`, all of them returned. */
async function until<T>(sub: Subscription, done: (item: T) => boolean): Promise<T[]> {
  const items: T[] = []
  for (;;) {
    const item = (await sub.next()) as T
    items.push(item)
    if (done(item)) return items
  }
}

function transfer(to: Hex, amount: bigint): Promise<Hex> {
  return clients.wallet.writeContract({
    address: token,
    abi: testToken.abi,
    functionName: 'transfer',
    args: [to, amount],
    gas: 100_000n,
  })
}

describe('flashblocks subscriptions on /flashblocks', () => {
  test('200 concurrent newFlashblocks subscribers each receive every flashblock once and in order', async () => {
    const subscribers = await Promise.all(
      Array.from({ length: 200 }, () => createWsClient(wsUrlOf(service.flashblocksUrl))),
    )
    try {
      const subs = await Promise.all(subscribers.map((s) => s.subscribe('newFlashblocks')))
      // the feed is the reference: every flashblock from the next block on, as published
      const feed = new WebSocket(`${service.wsUrl}ws/flashblocks`)
      const hashes: { number: bigint; hash: string }[] = []
      let firstNumber: bigint | undefined
      feed.on('message', (data) => {
        const message = decodeFrame(String(data))
        if (isEndOfBlock(message)) return
        if (firstNumber === undefined) {
          if (message.index !== 0) return
          firstNumber = BigInt(message.metadata.block_number)
        }
        hashes.push({ number: BigInt(message.metadata.block_number), hash: message.diff.block_hash })
      })
      await once(feed, 'open')
      // traffic so that flashblocks carry transactions
      for (let i = 0; i < 3; i++)
        await clients.wallet.sendTransaction({
          to: '0x70997970c51812dc3a010c7d01b54a0d8d1dc79c',
          value: 1n,
          gas: 21_000n,
        })
      await vi.waitFor(() => expect(hashes.length).toBeGreaterThanOrEqual(12), { timeout: 20_000, interval: 50 })
      feed.close()
      const expected = hashes.slice(0, 12)
      await Promise.all(
        subs.map(async (sub) => {
          const received: { number: bigint; hash: string }[] = []
          while (received.length < expected.length) {
            const block = (await sub.next()) as { number: string; hash: string; transactions: unknown[] }
            expect(block.transactions.every((tx) => typeof tx === 'object')).toBe(true)
            if (BigInt(block.number) < firstNumber!) continue // flashblocks of the block in progress when the feed joined
            received.push({ number: BigInt(block.number), hash: block.hash })
          }
          expect(received).toEqual(expected)
        }),
      )
    } finally {
      await Promise.all(subscribers.map((s) => s.close()))
    }
    await vi.waitFor(() => expect(service.subscriptions.count('newFlashblocks')).toBe(0))
  })

  test('newFlashblocks shows a sent transaction in the pending block before it is canonical', async () => {
    const sub = await client.subscribe('newFlashblocks')
    const hash = await clients.wallet.sendTransaction({
      to: '0x90f79bf6eb2c4f870365e785982e1f101e93b906',
      value: parseEther('0.5'),
      gas: 21_000n,
    })
    const blocks = await until<{ number: string; hash: string; transactions: { hash: string; blockHash: string }[] }>(
      sub,
      (b) => b.transactions.some((tx) => tx.hash === hash),
    )
    const pending = blocks.at(-1)!
    const tx = pending.transactions.find((t) => t.hash === hash)!
    expect(tx.blockHash).toBe(pending.hash)
    const receipt = await clients.publicHttp.waitForTransactionReceipt({ hash, pollingInterval: 50 })
    expect(BigInt(pending.number)).toBe(receipt.blockNumber)
    await sub.unsubscribe()
  })

  test('pendingLogs sends each matching log once, one per message, with the pending block position', async () => {
    const recipient = '0x15d34aaf54267db7d7c367839aaf71a00a2c6a65'
    const sub = await client.subscribe('pendingLogs', {
      address: token,
      topics: [TRANSFER_TOPIC, null, `0x${recipient.slice(2).padStart(64, '0')}`],
    })
    const other = await transfer('0x9965507d1a55bcc2695c58ba16fb37d819b0a4dc', 1n)
    const hash = await transfer(recipient, 42n)
    const logs = await until<{
      transactionHash: string
      address: string
      data: string
      blockNumber: string
      logIndex: string
      topics: string[]
    }>(sub, (log) => log.transactionHash === hash)
    expect(logs.map((l) => l.transactionHash)).not.toContain(other)
    expect(logs).toHaveLength(1)
    const [log] = logs
    expect(log!.address).toBe(token.toLowerCase())
    expect(BigInt(log!.data)).toBe(42n)
    const receipt = await clients.publicHttp.waitForTransactionReceipt({ hash, pollingInterval: 50 })
    expect(BigInt(log!.blockNumber)).toBe(receipt.blockNumber)
    expect(Number(log!.logIndex)).toBe(receipt.logs[0]!.logIndex)
    await sub.unsubscribe()
  })

  test('newFlashblockTransactions sends hashes, or with true the transaction with its receipt fields and logs', async () => {
    const hashes = await client.subscribe('newFlashblockTransactions')
    const full = await client.subscribe('newFlashblockTransactions', true)
    const hash = await transfer('0x976ea74026e726554db657fa54763abd0c3a0aa9', 9n)
    await until<string>(hashes, (h) => h === hash)
    const items = await until<Record<string, unknown>>(full, (t) => t.hash === hash)
    const tx = items.at(-1)!
    expect(tx).toMatchObject({ hash, from: devAccount.address.toLowerCase(), to: token.toLowerCase(), status: '0x1' })
    expect(tx.gasUsed).toMatch(/^0x[0-9a-f]+$/)
    expect(tx.logs).toEqual([expect.objectContaining({ address: token.toLowerCase(), transactionHash: hash })])
    await hashes.unsubscribe()
    await full.unsubscribe()
  })

  test("X Layer's flashblocks kind sends headers and the transactions touching the subscribed addresses", async () => {
    const watched = '0x14dc79964da2c08b23698b3d3cc7ca32193d9955'
    const sub = await client.subscribe('flashblocks', {
      headerInfo: true,
      subTxFilter: { subscribeAddresses: [watched], txInfo: true, txReceipt: true },
    })
    const unrelated = await clients.wallet.sendTransaction({
      to: '0x23618e81e3f5cdf7f54c3d65f7fbc0abf5b21e8f',
      value: 3n,
      gas: 21_000n,
    })
    const related = await transfer(watched, 5n) // the watched address is only a log topic's recipient here: not matched
    const direct = await clients.wallet.sendTransaction({ to: watched, value: 7n, gas: 21_000n })
    type Event =
      | { type: 'header'; header: { hash: string; number: string } }
      | {
          type: 'transaction'
          transaction: {
            txHash: string
            txData?: { hash: string }
            receipt?: { transactionHash: string; status: string }
          }
        }
    const events = await until<Event>(sub, (e) => e.type === 'transaction' && e.transaction.txHash === direct)
    const txEvents = events.filter((e) => e.type === 'transaction')
    expect(txEvents.map((e) => e.transaction.txHash)).toEqual([direct])
    expect(txEvents.map((e) => e.transaction.txHash)).not.toContain(unrelated)
    expect(txEvents.map((e) => e.transaction.txHash)).not.toContain(related)
    const last = txEvents[0]!.transaction
    expect(last.txData?.hash).toBe(direct)
    expect(last.receipt).toMatchObject({ transactionHash: direct, status: '0x1' })
    expect(events.some((e) => e.type === 'header' && /^0x[0-9a-f]{64}$/.test(e.header.hash))).toBe(true)
    await sub.unsubscribe()
  })
})
