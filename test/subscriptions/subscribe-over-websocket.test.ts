import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { createHttpClient, createWsClient, RpcResponseError, type WsRpcClient } from '../../generated/client.js'
import { MAX_SUBSCRIBE_ADDRESSES, MAX_SUBSCRIPTIONS_PER_CONNECTION } from '../../src/limits.js'
import { startService, type RunningService } from '../../src/service.js'
import { wsUrlOf } from '../../src/client/ws-url.js'

let service: RunningService
let general: WsRpcClient
let flashblocks: WsRpcClient

beforeAll(async () => {
  service = await startService({ port: 0, quiet: true, rateLimit: 0 })
  general = await createWsClient(service.wsUrl)
  flashblocks = await createWsClient(wsUrlOf(service.flashblocksUrl))
})

afterAll(async () => {
  await general?.close()
  await flashblocks?.close()
  await service?.close()
})

async function rpcError(promise: Promise<unknown>): Promise<RpcResponseError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(RpcResponseError)
  return error as RpcResponseError
}

describe('eth_subscribe and eth_unsubscribe', () => {
  test('newHeads sends the header of each sealed block, the same as eth_getBlockByNumber', async () => {
    const sub = await general.subscribe('newHeads')
    expect(sub.id).toMatch(/^0x[0-9a-f]{1,32}$/)
    const first = (await sub.next()) as { number: string; hash: string; parentHash: string }
    const second = (await sub.next()) as { number: string; hash: string; parentHash: string }
    expect(BigInt(second.number)).toBe(BigInt(first.number) + 1n)
    expect(second.parentHash).toBe(first.hash)
    const block = (await createHttpClient(service.url).call('eth_getBlockByNumber', [first.number, false])) as Record<
      string,
      unknown
    >
    const { size: _size, transactions: _txs, uncles: _uncles, withdrawals: _w, ...header } = block
    expect(first).toEqual(header)
    expect(await sub.unsubscribe()).toBe(true)
  })

  test('eth_unsubscribe answers false for an id that is unknown or already cancelled', async () => {
    const sub = await general.subscribe('newPendingTransactions')
    expect(await sub.unsubscribe()).toBe(true)
    expect(await sub.unsubscribe()).toBe(false)
    expect(await general.call('eth_unsubscribe', ['0x9ce59a13059e417087c02d3236a0b1cc'])).toBe(false)
  })

  test("a connection cannot cancel another connection's subscription", async () => {
    const sub = await flashblocks.subscribe('newHeads')
    expect(await general.call('eth_unsubscribe', [sub.id])).toBe(false)
    expect(await sub.unsubscribe()).toBe(true)
  })

  test("an unknown kind is refused with geth's message", async () => {
    const error = await rpcError(general.call('eth_subscribe', ['newBlocks']))
    expect(error.code).toBe(-32601)
    expect(error.message).toBe('no "newBlocks" subscription in eth namespace')
  })

  test('the flashblocks kinds exist on /flashblocks only', async () => {
    for (const kind of ['newFlashblocks', 'pendingLogs', 'newFlashblockTransactions']) {
      const error = await rpcError(general.call('eth_subscribe', [kind]))
      expect(error.message).toBe(`no "${kind}" subscription in eth namespace`)
      const sub = await flashblocks.subscribe(kind)
      expect(await sub.unsubscribe()).toBe(true)
    }
  })

  test('syncing is acknowledged and sends nothing while the node is not syncing', async () => {
    const syncing = await general.subscribe('syncing')
    const heads = await general.subscribe('newHeads')
    await heads.next()
    const nothing = Symbol('nothing')
    expect(await Promise.race([syncing.next(), Promise.resolve(nothing)])).toBe(nothing)
    await syncing.unsubscribe()
    await heads.unsubscribe()
  })

  test('bad arguments answer -32602 naming the argument', async () => {
    const bad = await rpcError(general.call('eth_subscribe', ['logs', { address: '0x12' }]))
    expect(bad.code).toBe(-32602)
    expect(bad.message).toBe('invalid argument 1 (filter): expected a 20-byte hex address, got "0x12"')
    const extra = await rpcError(general.call('eth_subscribe', ['newHeads', true]))
    expect(extra.code).toBe(-32602)
    const flag = await rpcError(general.call('eth_subscribe', ['newPendingTransactions', 'yes']))
    expect(flag.code).toBe(-32602)
    expect(flag.message).toMatch(/^invalid argument 1 \(/)
  })
})

describe("X Layer's flashblocks kind", () => {
  test('requires its filter object', async () => {
    const error = await rpcError(flashblocks.call('eth_subscribe', ['flashblocks']))
    expect(error.code).toBe(-32602)
    expect(error.message).toBe('flashblocks subscription requires filter params, no params specified')
  })

  test(`refuses more than ${MAX_SUBSCRIBE_ADDRESSES} subscribe addresses`, async () => {
    const addresses = Array.from(
      { length: MAX_SUBSCRIBE_ADDRESSES + 1 },
      (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')}`,
    )
    const error = await rpcError(
      flashblocks.call('eth_subscribe', ['flashblocks', { subTxFilter: { subscribeAddresses: addresses } }]),
    )
    expect(error.code).toBe(-32602)
    expect(error.message).toBe('too many subscribe addresses')
    const sub = await flashblocks.subscribe('flashblocks', { subTxFilter: { subscribeAddresses: addresses.slice(1) } })
    expect(await sub.unsubscribe()).toBe(true)
  })

  test('rejects unknown fields, as its serde filter does', async () => {
    const error = await rpcError(flashblocks.call('eth_subscribe', ['flashblocks', { headerInfo: true, txInfo: true }]))
    expect(error.code).toBe(-32602)
    expect(error.message).toMatch(/unknown field "txInfo"/)
  })

  test('is not offered on the general endpoint', async () => {
    const error = await rpcError(general.call('eth_subscribe', ['flashblocks', { headerInfo: true }]))
    expect(error.message).toBe('no "flashblocks" subscription in eth namespace')
  })
})

describe('limits and cleanup', () => {
  test(`a connection holds at most ${MAX_SUBSCRIPTIONS_PER_CONNECTION} subscriptions`, async () => {
    const client = await createWsClient(service.wsUrl)
    const subs = await Promise.all(
      Array.from({ length: MAX_SUBSCRIPTIONS_PER_CONNECTION }, () => client.subscribe('syncing')),
    )
    const error = await rpcError(client.call('eth_subscribe', ['syncing']))
    expect(error.code).toBe(-32005)
    await subs[0]!.unsubscribe()
    await (await client.subscribe('syncing')).unsubscribe()
    await client.close()
  })

  test('subscribe/unsubscribe churn and closed sockets leave no subscription behind', async () => {
    await vi.waitFor(() => expect(service.subscriptions.count()).toBe(0))
    const clients = await Promise.all(Array.from({ length: 10 }, () => createWsClient(wsUrlOf(service.flashblocksUrl))))
    const kinds: [string, ...unknown[]][] = [
      ['newHeads'],
      ['logs', {}],
      ['newPendingTransactions', true],
      ['newFlashblocks'],
      ['pendingLogs'],
      ['newFlashblockTransactions', true],
      ['flashblocks', { headerInfo: true }],
    ]
    await Promise.all(
      clients.map(async (client, c) => {
        for (let round = 0; round < 20; round++) {
          const [kind, ...args] = kinds[(c + round) % kinds.length]!
          const sub = await client.subscribe(kind, ...args)
          if (round % 3 !== 0) expect(await sub.unsubscribe()).toBe(true)
        }
      }),
    )
    expect(service.subscriptions.count()).toBe(10 * 7)
    // each client closes its socket with its remaining subscriptions still open
    await Promise.all(clients.map((client) => client.close()))
    await vi.waitFor(() => expect(service.subscriptions.count()).toBe(0))
  })
})
