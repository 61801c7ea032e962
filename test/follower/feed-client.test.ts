import { brotliCompressSync } from 'node:zlib'
import { Worker } from 'node:worker_threads'
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import WebSocketClient, { type WebSocket, WebSocketServer } from 'ws'
import type { Flashblock, FlashblockPayload } from '../../src/domain/types.js'
import { encodeBrotliFrame } from '../../src/feed/codec.js'
import { decodeFlashblock } from '../../src/feed/decode.js'
import { encodeEndOfBlock, encodeFlashblock } from '../../src/feed/encode.js'
import { FeedClient } from '../../src/follower/feed-client.js'
import { startService, type RunningService } from '../../src/service.js'
import { nextEvent, until } from '../support/wait-for.js'

const quietHour = { port: 0, quiet: true, rateLimit: 0, blockTimeMs: 3_600_000, flashblockIntervalMs: 3_600_000 }
const expected = (fb: Flashblock): FlashblockPayload => decodeFlashblock(encodeFlashblock(fb))

describe("the feed client on the leader's raw feed", () => {
  let leader: RunningService
  let client: FeedClient | undefined
  beforeAll(async () => {
    leader = await startService(quietHour)
  })
  afterEach(() => client?.stop())
  afterAll(() => leader?.close())

  for (const framing of ['json', 'brotli'] as const) {
    test(`decodes the leader's ${framing} frames into the flashblocks it built, in order`, async () => {
      client = new FeedClient({ url: `${leader.wsUrl}ws/flashblocks${framing === 'brotli' ? '?compress=brotli' : ''}` })
      const got: FlashblockPayload[] = []
      client.on('payload', (p) => got.push(p))
      client.start()
      await nextEvent(client, 'open')
      await until(() => leader.feed.count() > 0, 'the leader to register the feed client')
      await leader.chain.sealNow() // the leader opened a block at start: begin at the next one's index 0
      const built = [await leader.chain.buildNow(), await leader.chain.buildNow()]
      await until(() => got.length === 2, 'two payloads')
      expect(got).toEqual(built.map(expected))
      expect(client.stats).toMatchObject({ connects: 1, decodeErrors: 0, sequenceBreaks: 0 })
    })
  }

  test('reconnects with backoff doubling to the cap after the leader closes its feed socket', async () => {
    const warnings: string[] = []
    client = new FeedClient({
      url: `${leader.wsUrl}ws/flashblocks`,
      reconnectMinMs: 20,
      reconnectMaxMs: 80,
      warn: (m) => warnings.push(m),
    })
    client.start()
    await nextEvent(client, 'open')
    const port = new URL(leader.url).port
    await leader.close()
    await until(() => client!.stats.reconnects >= 5, 'five reconnect attempts')
    const waits = warnings.filter((w) => w.includes('reconnecting in')).map((w) => Number(/in (\d+) ms/.exec(w)![1]))
    expect(waits.slice(0, 5)).toEqual([20, 40, 80, 80, 80])

    leader = await startService({ ...quietHour, port: Number(port) })
    await nextEvent(client, 'open')
    const got = nextEvent<[FlashblockPayload]>(client, 'payload')
    await until(() => leader.feed.count() > 0, 'the leader to register the feed client')
    const fb = await leader.chain.buildNow()
    expect((await got)[0]).toEqual(expected(fb))
    expect(client.stats.connects).toBe(2)
  })
})

/** The flashblock's message with a Lagoon post-execution transaction in its diff, as op-alloy's field carries it. */
const withPostExec = (fb: Flashblock) => {
  const message = encodeFlashblock(fb)
  return { ...message, diff: { ...message.diff, post_exec_tx: '0x7d01' } }
}

describe('the feed client on frames crafted as other feeds send them', () => {
  let server: WebSocketServer
  let leader: RunningService
  let client: FeedClient | undefined
  beforeAll(async () => {
    leader = await startService(quietHour)
    server = new WebSocketServer({ host: '127.0.0.1', port: 0 })
    await new Promise((r) => server.once('listening', r))
  })
  afterEach(() => client?.stop())
  afterAll(async () => {
    await new Promise((r) => server.close(r))
    await leader?.close()
  })

  test('decodes binary JSON, brotli with and without 0x1E, the OpFlashblockPayload wrapper and the end-of-payload message', async () => {
    await leader.chain.sealNow()
    const fb0 = await leader.chain.buildNow()
    const fb1 = await leader.chain.buildNow()
    const fb2 = await leader.chain.buildNow()
    const fb3 = await leader.chain.buildNow()
    const json = (fb: Flashblock) => JSON.stringify(encodeFlashblock(fb))
    const frames: [string | Buffer, boolean][] = [
      [Buffer.from(`  \n${json(fb0)}`), true], // JSON in a binary frame, after whitespace
      [encodeBrotliFrame(encodeFlashblock(fb1)), true], // xlayer-reth: 0x1E + brotli
      // Base: raw brotli; op-rbuilder's post_exec_tx on it, counted
      [brotliCompressSync(Buffer.from(JSON.stringify(withPostExec(fb2)))), true],
      [JSON.stringify({ OpFlashblockPayload: { ...encodeFlashblock(fb3), target_index: 5 } }), false], // xlayer-reth's pipe
      ['{"payload_id": 7}', false], // not a feed message
      [Buffer.from([0x1e, 1, 2, 3]), true], // neither JSON nor brotli
      [JSON.stringify({ OpFlashblockPayload: encodeEndOfBlock(fb0.payloadId) }), false],
    ]
    server.once('connection', (ws: WebSocket) => {
      for (const [frame, binary] of frames) ws.send(frame, { binary })
    })
    const got: FlashblockPayload[] = []
    const ends: Uint8Array[] = []
    client = new FeedClient({ url: `ws://127.0.0.1:${(server.address() as { port: number }).port}` })
    client.on('payload', (p) => got.push(p))
    client.on('end', (id) => ends.push(id))
    client.start()
    await until(() => ends.length === 1, 'the end-of-payload message')
    const fb2Expected = { ...expected(fb2), diff: { ...expected(fb2).diff, postExecTx: Uint8Array.from([0x7d, 1]) } }
    expect(got).toEqual([expected(fb0), expected(fb1), fb2Expected, expected({ ...fb3, targetIndex: 5 })])
    expect(ends).toEqual([fb0.payloadId])
    expect(client.stats).toMatchObject({ messages: 7, decodeErrors: 2, sequenceBreaks: 0, postExecTxs: 1 })
  })

  test('counts a duplicate and a gap in the sequence, and still hands every payload on in order', async () => {
    await leader.chain.sealNow()
    const [a, b, c, d] = [
      await leader.chain.buildNow(),
      await leader.chain.buildNow(),
      await leader.chain.buildNow(),
      await leader.chain.buildNow(),
    ]
    server.once('connection', (ws: WebSocket) => {
      for (const fb of [a, b, b, d, c]) ws.send(JSON.stringify(encodeFlashblock(fb)))
    })
    const got: FlashblockPayload[] = []
    client = new FeedClient({ url: `ws://127.0.0.1:${(server.address() as { port: number }).port}` })
    client.on('payload', (p) => got.push(p))
    client.start()
    await until(() => got.length === 5, 'five payloads')
    expect(got.map((p) => p.index)).toEqual([a, b, b, d, c].map((fb) => fb.index))
    // b again: duplicate; d after b: a skipped index; c after the break: a join in mid-block
    expect(client.stats).toMatchObject({ duplicates: 1, sequenceBreaks: 2 })
  })
})

test('a pong that came while the follower’s own event loop was stalled keeps the connection', async () => {
  // the upstream in a worker thread (its own event loop, as another process): it answers the ping when this
  // thread says, so the pong is known to arrive during the stall below, not before or after it
  const [go, ponged] = [0, 1]
  const flags = new Int32Array(new SharedArrayBuffer(12))
  const upstream = new Worker(
    `const { workerData: flags, parentPort } = require('node:worker_threads')
     const { WebSocketServer } = require('ws')
     const server = new WebSocketServer({ host: '127.0.0.1', port: 0, autoPong: false })
     server.on('listening', () => parentPort.postMessage(server.address().port))
     server.on('connection', (ws) => ws.on('ping', () => {
       Atomics.wait(flags, ${go}, 0)
       ws.pong()
       Atomics.store(flags, ${ponged}, 1)
       Atomics.notify(flags, ${ponged})
     }))`,
    { eval: true, workerData: flags },
  )
  const realPing = WebSocketClient.prototype.ping
  let pings = 0
  const ping = vi.spyOn(WebSocketClient.prototype, 'ping').mockImplementation(function (this: WebSocketClient) {
    realPing.call(this)
    if (++pings > 1) {
      Atomics.store(flags, go, 1) // every later ping is answered at once
      return
    }
    // after this turn's read of the sockets (no pong yet): stalled until the pong is sent, then for two more
    // intervals, so the next tick is overdue when the loop turns again and runs before the pong is read
    setImmediate(() => {
      Atomics.store(flags, go, 1)
      Atomics.notify(flags, go)
      Atomics.wait(flags, ponged, 0, 10_000)
      Atomics.wait(flags, 2, 0, 2 * 50)
    })
  })
  const client = new FeedClient({
    url: `ws://127.0.0.1:${(await nextEvent<[number]>(upstream, 'message'))[0]}`,
    pingIntervalMs: 50,
  })
  try {
    client.start()
    await until(() => pings >= 3, 'two pings after the stall')
    expect(Atomics.load(flags, ponged)).toBe(1)
    expect(client.stats).toMatchObject({ connects: 1, pongTimeouts: 0 })
  } finally {
    client.stop()
    ping.mockRestore()
    await upstream.terminate()
  }
})
