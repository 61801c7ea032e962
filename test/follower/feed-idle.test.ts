import { afterAll, afterEach, beforeAll, expect, test } from 'vitest'
import type { FlashblockPayload } from '../../src/domain/types.js'
import { FeedClient } from '../../src/follower/feed-client.js'
import { type LeaderProcess, startLeaderProcess } from '../support/leader-process.js'
import { nextEvent, until } from '../support/wait-for.js'

let leader: LeaderProcess
let client: FeedClient | undefined
beforeAll(async () => {
  leader = await startLeaderProcess() // publishes a flashblock every 200 ms, empty or not
}, 60_000)
afterEach(() => client?.stop())
afterAll(() => leader?.close())

test('a leader frozen with its socket open makes the feed idle and miss pongs; frames flow again after SIGCONT', async () => {
  const warnings: string[] = []
  client = new FeedClient({
    url: `${leader.wsUrl}ws/flashblocks`,
    idleTimeoutMs: 800,
    reconnectMinMs: 100,
    reconnectMaxMs: 400,
    warn: (m) => warnings.push(m),
  })
  let payloads = 0
  client.on('payload', () => payloads++)
  client.start()
  await until(() => payloads >= 2 && !client!.isIdle, 'flashblocks from the running leader')
  // a leader slowed by a busy machine may already have gone silent past the timeout once: count from here
  const idlesBefore = client.stats.idles

  leader.pause()
  try {
    await nextEvent(client, 'idle')
    expect(client.isIdle).toBe(true)
    await until(() => client!.stats.pongTimeouts >= 1, 'a missing pong to close the socket')
    expect(warnings.some((w) => /idle for 800 ms/.test(w))).toBe(true)
    // one silence is one idle, however many timeouts and reconnects it lasts
    expect(client.stats.idles).toBe(idlesBefore + 1)
  } finally {
    leader.resume()
  }

  const resumed = nextEvent(client, 'resumed')
  const [next] = await nextEvent<[FlashblockPayload]>(client, 'payload')
  await resumed
  expect(next.metadata.blockNumber).toBeGreaterThan(0n)
  expect(client.isIdle).toBe(false)
  expect(client.stats.decodeErrors).toBe(0)
  expect(client.stats.reconnects).toBeGreaterThanOrEqual(1)
}, 60_000)
