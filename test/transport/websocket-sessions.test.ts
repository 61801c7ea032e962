import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import WebSocket from 'ws'
import { createHttpClient, createWsClient, RpcResponseError, type WsRpcClient } from '../../generated/client.js'
import { createChain } from '../../src/chain/create-chain.js'
import { checkConfig } from '../../src/config.js'
import { FeedPublisher } from '../../src/feed/publisher.js'
import { connectFilters } from '../../src/filters/service.js'
import { sequencerStatus } from '../../src/feed/peer-status.js'
import { handlerContexts } from '../../src/handlers/context.js'
import { handlers } from '../../src/handlers/index.js'
import { startService, type RunningService } from '../../src/service.js'
import { SubscriptionHub } from '../../src/subscriptions/hub.js'
import { ALL_KINDS } from '../../src/subscriptions/kinds/index.js'
import { createApp } from '../../src/server/app.js'
import type { RequestLimiter } from '../../src/server/throttle.js'
import { SLOW_CONSUMER_CLOSE_CODE } from '../../src/server/ws-connection.js'
import { wsUrlOf } from '../../src/client/ws-url.js'

let service: RunningService
let ws: WsRpcClient

beforeAll(async () => {
  // the slow-consumer case sends far more than 100 requests in a second
  service = await startService({ port: 0, quiet: true, rateLimit: 0 })
  ws = await createWsClient(service.wsUrl)
})

afterAll(async () => {
  await ws?.close()
  await service?.close()
})

function rawSocket(path = '/'): Promise<WebSocket> {
  const socket = new WebSocket(new URL(path, service.wsUrl))
  return once(socket, 'open').then(() => socket)
}

function nextMessage(socket: WebSocket): Promise<unknown> {
  return once(socket, 'message').then(([data]) => JSON.parse(String(data)))
}

describe('JSON-RPC over WebSocket', () => {
  test('answers the same as HTTP for a plain method', async () => {
    const http = createHttpClient(service.url)
    expect(await ws.request('eth_chainId', [])).toBe(await http.request('eth_chainId', []))
    expect(await ws.request('web3_clientVersion', [])).toBe(await http.request('web3_clientVersion', []))
  })

  test('answers a batch with one reply per call, matched by id', async () => {
    const outcomes = await ws.batch([
      { method: 'eth_chainId', params: [] },
      { method: 'net_version', params: [] },
      { method: 'web3_sha3', params: ['0x68656c6c6f'] },
    ])
    expect(outcomes).toEqual([
      { result: '0xc4' },
      { result: '196' },
      { result: '0x1c8aff950685c2ed4bc3174f3472287b56d9517b9c948127319a09a7a36deac8' },
    ])
  })

  test('serves the flashblocks endpoint on /flashblocks, including its own methods', async () => {
    const fb = await createWsClient(wsUrlOf(service.flashblocksUrl))
    try {
      expect(await fb.request('op_supportedCapabilities', [])).toEqual(['flashblocksv1'])
    } finally {
      await fb.close()
    }
    await expect(ws.call('op_supportedCapabilities', [])).rejects.toMatchObject({ code: -32601 })
  })

  test('answers text that is not JSON with -32700 and keeps the connection open', async () => {
    const socket = await rawSocket()
    try {
      socket.send('{"jsonrpc":')
      expect(await nextMessage(socket)).toMatchObject({ id: null, error: { code: -32700 } })
      socket.send(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'eth_chainId', params: [] }))
      expect(await nextMessage(socket)).toEqual({ jsonrpc: '2.0', id: 7, result: '0xc4' })
    } finally {
      socket.close()
    }
  })

  test('answers eth_subscribe over HTTP as geth does: -32601 notifications not supported', async () => {
    const http = createHttpClient(service.url)
    const error = await http.call('eth_subscribe', ['newHeads']).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RpcResponseError)
    expect(error).toMatchObject({ code: -32601, message: 'notifications not supported' })
    await expect(http.call('eth_unsubscribe', ['0x1'])).rejects.toMatchObject({
      code: -32601,
      message: 'notifications not supported',
    })
  })

  test('a plain GET on an endpoint path is still the HTTP description, not an upgrade', async () => {
    const response = await fetch(service.url)
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ name: 'preconf-rpc', endpoint: 'general' })
  })
})

describe('a consumer that stops reading', () => {
  test('is disconnected with close code 1008 and a reason, and loses its subscriptions', async () => {
    const socket = await rawSocket()
    socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] }))
    await nextMessage(socket)
    expect(service.subscriptions.count()).toBe(1)
    // stop reading: the server's send buffer fills once the kernel buffers are full
    socket.pause()
    const batch = JSON.stringify(
      Array.from({ length: 100 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'rpc.discover', params: [] })),
    )
    while (service.subscriptions.count() > 0) {
      socket.send(batch)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    const closed = once(socket, 'close')
    socket.resume()
    const [code, reason] = await closed
    expect(code).toBe(SLOW_CONSUMER_CLOSE_CODE)
    expect(String(reason)).toMatch(/slow consumer/)
  })
})

describe('rate limiting over WebSocket', () => {
  test('each message costs its batch size, and a message over budget gets -32005 while the socket stays open', async () => {
    const config = checkConfig({ quiet: true, port: 0 })
    const chain = await createChain({ ...config, accounts: 1 })
    // a fixed budget of 3 requests, counted as the transport reports them
    const consumed: number[] = []
    const limiter: RequestLimiter = {
      consume: async (_ip, count) => {
        consumed.push(count)
        const used = consumed.reduce((a, b) => a + b, 0)
        return { allowed: used <= 3, limit: 3, remaining: 3 - used, resetMs: 1000 }
      },
    }
    const publisher = new FeedPublisher()
    const app = await createApp({
      config,
      handlers,
      limiter,
      websocket: { hub: new SubscriptionHub(ALL_KINDS), publisher },
      context: handlerContexts(
        chain,
        config,
        connectFilters(chain.events),
        sequencerStatus({ events: chain.events, mining: false, publisher, localPeerId: () => '' }),
      ),
    })
    await app.listen({ host: '127.0.0.1', port: 0 })
    const client = await createWsClient(`ws://127.0.0.1:${(app.server.address() as AddressInfo).port}/`)
    try {
      await client.batch([
        { method: 'eth_chainId', params: [] },
        { method: 'net_version', params: [] },
      ])
      expect(await client.request('eth_chainId', [])).toBe('0xc4')
      await expect(client.request('eth_chainId', [])).rejects.toMatchObject({
        code: -32005,
        message: 'rate limit exceeded: 3 requests per second',
      })
      expect(consumed).toEqual([2, 1, 1])
    } finally {
      await client.close()
      await app.close()
      await chain.stop()
    }
  })
})
