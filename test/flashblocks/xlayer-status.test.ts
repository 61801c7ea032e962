/**
 * X Layer's status methods, eth_flashblocksEnabled and eth_flashblocksPeerStatus, with xlayer-reth's shapes
 * (a boolean; PeerStatusSnapshot or null). The embedded chain answers from its sequencer: enabled once it has
 * published a flashblock, its peers the clients of /ws/flashblocks. A follower answers from its upstream feed:
 * enabled while flashblocks come, the feed a static peer that stays listed, disconnected, when it goes.
 */
import { once } from 'node:events'
import { afterEach, describe, expect, test } from 'vitest'
import WebSocket from 'ws'
import type { Chain } from '../../src/chain/chain.js'
import { startService } from '../../src/service.js'
import { startFrozenService } from '../support/harness.js'
import { call } from '../support/rpc.js'
import { startTestFeed } from '../support/test-feed.js'
import { until } from '../support/wait-for.js'

let closers: (() => unknown)[] = []
afterEach(async () => {
  for (const close of closers.reverse()) await close()
  closers = []
})

/** The answer of `/`, checked equal to that of `/flashblocks` but for the seconds that pass between the two. */
const both = async (service: { url: string; flashblocksUrl: string }, method: string) => {
  const [general, flashblocks] = await Promise.all([call(service.url, method), call(service.flashblocksUrl, method)])
  const shape = (value: unknown) => JSON.stringify(value, (key, v) => (/Secs(Ago)?$/.test(key) ? typeof v : v))
  expect(shape(general)).toBe(shape(flashblocks))
  return general
}

describe('on the embedded chain', () => {
  test('eth_flashblocksEnabled is true once the sequencer has published a flashblock, false with --no-mining', async () => {
    // the sequencer opens its first block (index 0) as it starts
    const service = await startFrozenService()
    closers.push(() => service.close())
    expect(await both(service, 'eth_flashblocksEnabled')).toBe(true)
    const idle = await startFrozenService({ mining: false })
    closers.push(() => idle.close())
    expect(await both(idle, 'eth_flashblocksEnabled')).toBe(false)
  })

  test('eth_flashblocksPeerStatus lists each client of /ws/flashblocks while it is connected', async () => {
    const service = await startFrozenService()
    closers.push(() => service.close())
    const feedUrl = `${service.wsUrl}ws/flashblocks`
    expect(await both(service, 'eth_flashblocksPeerStatus')).toEqual({
      localPeerId: feedUrl,
      summary: { total: 0, connected: 0, disconnected: 0, neverConnected: 0, staticPeers: 0 },
      peers: [],
    })

    const client = new WebSocket(feedUrl)
    await once(client, 'open')
    // ws keeps its TCP socket private; the client's own port is what the server sees as the peer
    const port = (client as unknown as { _socket: { localPort: number } })._socket.localPort
    await until(async () => (await call(service.url, 'eth_flashblocksPeerStatus')).summary.total === 1, 'the client')
    const before = await call(service.url, 'eth_flashblocksPeerStatus')
    expect(before.summary).toEqual({ total: 1, connected: 1, disconnected: 0, neverConnected: 0, staticPeers: 0 })
    expect(before.peers[0]).toEqual({
      peerId: `127.0.0.1:${port}`,
      multiaddr: `/ip4/127.0.0.1/tcp/${port}/ws`,
      isStatic: false,
      connectionState: 'connected',
      hasStream: true,
      connectedDurationSecs: expect.any(Number),
      connectionCount: 1,
    })
    // a frame sent to it
    await (service.chain as Chain).buildNow()
    const after = await call(service.url, 'eth_flashblocksPeerStatus')
    expect(after.peers[0].lastBroadcastSecsAgo).toBeGreaterThanOrEqual(0)

    client.close()
    await until(async () => (await call(service.url, 'eth_flashblocksPeerStatus')).summary.total === 0, 'forgotten')
  })
})

describe('on a follower', () => {
  test('without --upstream-feed: not enabled, and no peer layer (null)', async () => {
    const leader = await startFrozenService()
    closers.push(() => leader.close())
    const follower = await startService({ port: 0, quiet: true, rateLimit: 0, upstream: leader.url })
    closers.push(() => follower.close())
    expect(await both(follower, 'eth_flashblocksEnabled')).toBe(false)
    expect(await both(follower, 'eth_flashblocksPeerStatus')).toBeNull()
  })

  test('enabled while its feed brings flashblocks; the feed is a static peer, listed disconnected when it goes', async () => {
    const leader = await startFrozenService()
    closers.push(() => leader.close())
    const feed = await startTestFeed()
    closers.push(() => feed.close())
    // the leader's frames, passed on unchanged
    const source = new WebSocket(`${leader.wsUrl}ws/flashblocks`)
    closers.push(() => source.terminate())
    source.on('message', (data, binary) => feed.sendFrame(binary ? (data as Buffer) : data.toString()))
    await once(source, 'open')
    const follower = await startService({
      port: 0,
      quiet: true,
      rateLimit: 0,
      upstream: leader.url,
      upstreamFeed: feed.url,
      flashblocksIdleTimeoutMs: 3_600_000,
    })
    closers.push(() => follower.close())
    await feed.connected()
    expect(await both(follower, 'eth_flashblocksEnabled')).toBe(false)

    const chain = leader.chain as Chain
    await chain.sealNow()
    await chain.buildNow()
    await until(() => both(follower, 'eth_flashblocksEnabled'), 'the follower to apply a flashblock')
    const port = new URL(feed.url).port
    const up = await both(follower, 'eth_flashblocksPeerStatus')
    expect(up).toEqual({
      localPeerId: `${follower.wsUrl}ws/flashblocks`,
      summary: { total: 1, connected: 1, disconnected: 0, neverConnected: 0, staticPeers: 1 },
      peers: [
        {
          peerId: feed.url,
          multiaddr: `/ip4/127.0.0.1/tcp/${port}/ws`,
          isStatic: true,
          connectionState: 'connected',
          hasStream: true,
          connectedDurationSecs: expect.any(Number),
          connectionCount: 1,
          lastBroadcastSecsAgo: expect.any(Number),
        },
      ],
    })

    await feed.close()
    await until(async () => (await call(follower.url, 'eth_flashblocksEnabled')) === false, 'the feed to drop')
    const down = await call(follower.url, 'eth_flashblocksPeerStatus')
    expect(down.summary).toEqual({ total: 1, connected: 0, disconnected: 1, neverConnected: 0, staticPeers: 1 })
    expect(down.peers[0]).toMatchObject({ connectionState: 'disconnected', hasStream: false, connectionCount: 1 })
    expect(down.peers[0].disconnectedDurationSecs).toBeGreaterThanOrEqual(0)
    expect(down.peers[0].connectedDurationSecs).toBeUndefined()
  })
})
