/**
 * What a follower's clients see when its sources fail: a feed that goes silent with the connection open
 * (the leader process frozen with SIGSTOP), an upstream that refuses connections and comes back (a loopback
 * TCP proxy closed and reopened in front of the leader), and a feed that repeats and skips flashblocks
 * (a loopback relay of the leader's feed that duplicates one frame and drops another).
 */
import { once } from 'node:events'
import { createWalletClient, http, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import WebSocket, { WebSocketServer } from 'ws'
import { afterAll, describe, expect, test } from 'vitest'
import { preconfRpcChain } from '../../src/client/chains.js'
import { decodeFrame } from '../../src/feed/codec.js'
import { decodeFlashblock } from '../../src/feed/decode.js'
import { isEndOfBlock } from '../../src/feed/wire.js'
import { type RunningFollower, startService } from '../../src/service.js'
import { BOB, DEV_KEY_1 } from '../support/dev-keys.js'
import { startLeaderProcess } from '../support/leader-process.js'
import { rpc } from '../support/rpc.js'
import { startTcpProxy } from '../support/tcp-proxy.js'
import { upstreamGone } from '../support/upstream-gone.js'
import { until } from '../support/wait-for.js'

const closers: (() => Promise<unknown> | unknown)[] = []
afterAll(async () => {
  for (const close of closers.reverse()) await close()
})

const follow = async (upstream: string, upstreamFeed: string, idleMs = 500): Promise<RunningFollower> => {
  const follower = await startService({
    port: 0,
    quiet: true,
    rateLimit: 0,
    upstream,
    upstreamFeed,
    flashblocksIdleTimeoutMs: idleMs,
  })
  closers.push(() => follower.close())
  return follower
}

describe('a follower whose feed goes silent with the connection open', () => {
  test('pending falls back to latest within the idle timeout, reads keep answering, preconfirmations resume after SIGCONT', async () => {
    const leader = await startLeaderProcess(['--block-time', '1', '--flashblock-interval', '200'])
    closers.push(() => leader.close())
    const follower = await follow(leader.url, `${leader.wsUrl}ws/flashblocks`)
    await until(() => follower.follower.pending.current() !== undefined, 'the follower to preconfirm')

    leader.pause()
    // the idle timeout here is 500 ms: until's own deadline (15 s) is the bound, no wall clock of the test's
    await until(() => follower.follower.pending.current() === undefined, 'pending to be dropped')
    expect(follower.follower.feed!.isIdle).toBe(true)
    expect(follower.follower.status().follower!.feed?.idles).toBeGreaterThanOrEqual(1)
    // what a client sees: pending is latest, answered from the follower's own cache while the leader is frozen
    const pending = await rpc(follower.flashblocksUrl, 'eth_getBlockByNumber', ['pending', false])
    const latest = await rpc(follower.flashblocksUrl, 'eth_getBlockByNumber', ['latest', false])
    expect((pending.result as { hash: string }).hash).toBe((latest.result as { hash: string }).hash)
    expect((await rpc(follower.url, 'eth_blockNumber')).result).toBe((latest.result as { number: string }).number)

    leader.resume()
    await until(() => follower.follower.pending.current() !== undefined, 'preconfirmations to resume', 30_000)
    expect(follower.follower.feed!.isIdle).toBe(false)
    const wallet = createWalletClient({
      chain: preconfRpcChain(follower.url.replace(/\/$/, '')),
      account: privateKeyToAccount(DEV_KEY_1),
      transport: http(follower.flashblocksUrl),
    })
    const receipt = await wallet.sendTransactionSync({ to: BOB, value: parseEther('0.1') })
    expect(receipt.status).toBe('success')
  }, 90_000)
})

describe('a follower whose upstream goes down and comes back', () => {
  test('while down, reads the cache cannot answer fail fast with -32603 naming the upstream; after, they answer again', async () => {
    const leader = await startService({
      port: 0,
      quiet: true,
      rateLimit: 0,
      blockTimeMs: 500,
      flashblockIntervalMs: 100,
    })
    closers.push(() => leader.close())
    const proxy = await startTcpProxy(Number(new URL(leader.url).port))
    closers.push(() => proxy.down().catch(() => {}))
    const follower = await follow(proxy.url(), `${leader.wsUrl}ws/flashblocks`)

    await proxy.down()
    // named at once, not after the upstream client's deadline (which would say "no answer within")
    const reply = await rpc(follower.url, 'eth_getBalance', [BOB, 'latest'])
    expect(reply.error?.code).toBe(-32603)
    expect(reply.error?.message).toMatch(upstreamGone(proxy.url()))
    // the cached head still answers
    expect((await rpc(follower.url, 'eth_blockNumber')).result).toMatch(/^0x/)
    await until(() => follower.follower.status().follower!.upstream.reachable === false, 'the follower to notice')

    await proxy.up()
    await until(
      () => follower.follower.status().follower!.upstream.reachable === true,
      'the follower to reach the upstream again',
    )
    const balance = await rpc(follower.url, 'eth_getBalance', [BOB, 'latest'])
    expect(balance.result).toBe((await rpc(leader.url, 'eth_getBalance', [BOB, 'latest'])).result)
    await until(
      async () =>
        (await rpc(follower.url, 'eth_blockNumber')).result === (await rpc(leader.url, 'eth_blockNumber')).result,
      'the follower to catch up',
    )
  }, 60_000)

  test('a follower that cannot reach its upstream at start fails with a sentence naming it', async () => {
    const proxy = await startTcpProxy(1)
    await proxy.down()
    await expect(startService({ port: 0, quiet: true, rateLimit: 0, upstream: proxy.url() })).rejects.toThrow(
      /cannot follow --upstream http:\/\/127\.0\.0\.1:\d+\/: upstream .* unavailable: ECONNREFUSED/,
    )
  })
})

describe('a follower whose feed repeats and skips flashblocks', () => {
  test('a duplicate is ignored; a gap drops pending until the next index 0', async () => {
    const leader = await startService({
      port: 0,
      quiet: true,
      rateLimit: 0,
      blockTimeMs: 1000,
      flashblockIntervalMs: 200,
    })
    closers.push(() => leader.close())
    // a relay of the leader's feed: once the next block starts, its index 1 is sent twice and its index 2 never
    const relay = new WebSocketServer({ host: '127.0.0.1', port: 0 })
    closers.push(() => new Promise((resolve) => relay.close(resolve)))
    await once(relay, 'listening')
    const source = new WebSocket(`${leader.wsUrl}ws/flashblocks`)
    closers.push(() => source.close())
    let target: bigint | undefined
    source.on('message', (data, isBinary) => {
      const text = isBinary ? (data as Buffer) : data.toString()
      const message = decodeFrame(text)
      const send = () => {
        for (const client of relay.clients) client.send(text)
      }
      if (isEndOfBlock(message)) return send()
      const payload = decodeFlashblock(message)
      if (target === undefined && payload.index === 0 && relay.clients.size > 0) target = payload.metadata.blockNumber
      if (payload.metadata.blockNumber === target && payload.index === 1) send()
      if (payload.metadata.blockNumber === target && payload.index === 2) return
      send()
    })
    const port = (relay.address() as { port: number }).port
    const follower = await follow(leader.url, `ws://127.0.0.1:${port}`, 3_000)
    const seen: [bigint, number][] = []
    follower.follower.events.on('flashblock', (fb) => seen.push([fb.metadata.blockNumber, fb.index]))
    await until(() => target !== undefined && seen.some(([n]) => n === target! + 1n), 'the block after the gap')

    const ofTarget = seen.filter(([n]) => n === target).map(([, i]) => i)
    // index 1 once (the duplicate ignored), nothing from the gap on
    expect(ofTarget).toEqual([0, 1])
    expect(seen.find(([n]) => n === target! + 1n)?.[1]).toBe(0)
    const { feed } = follower.follower.status().follower!
    expect(feed?.duplicates).toBe(1)
    expect(feed?.sequenceBreaks).toBeGreaterThanOrEqual(1)
  }, 60_000)
})
