/**
 * The head follower against real upstreams: our own service producing blocks fast (newHeads over its
 * WebSocket), anvil mining in bursts (polling), anvil's reorgs (anvil_reorg, evm_revert), an upstream
 * killed and replaced on the same port, and a frozen one (SIGSTOP). What a consumer sees is the stream of
 * CanonicalUpdates and the cache, which must always equal the upstream's chain.
 */
import { once } from 'node:events'
import { type Socket, createServer } from 'node:net'
import { afterEach, describe, expect, test } from 'vitest'
import { createChainCommon } from '../../src/evm/chain-common.js'
import type { BlockRecord } from '../../src/domain/types.js'
import { data } from '../../src/format/hex.js'
import { BlockCache } from '../../src/follower/block-cache.js'
import { type CanonicalUpdate, HeadFollower, type HeadFollowerOptions } from '../../src/follower/head-follower.js'
import { wsUrlOf } from '../../src/client/ws-url.js'
import { UpstreamClient } from '../../src/follower/upstream-client.js'
import { startService } from '../../src/service.js'
import { startAnvil } from '../support/anvil.js'
import { call as rpc } from '../support/rpc.js'
import { upstreamGone } from '../support/upstream-gone.js'
import { freeze } from '../support/wait-for.js'

const common = createChainCommon({ chainId: 196, gasLimit: 30_000_000n, baseFee: 1_000_000_000n })
const DEV0 = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
const DEV1 = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function until(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

/** A started follower of `url` and everything it reported. */
async function follow(url: string, options: Partial<HeadFollowerOptions> = {}) {
  const follower = new HeadFollower({
    rpc: new UpstreamClient(url),
    common,
    cache: new BlockCache(),
    wsUrl: false,
    ...options,
  })
  const cache = follower.cache
  const updates: CanonicalUpdate[] = []
  follower.onUpdate((u) => updates.push(u))
  await follower.start()
  cleanups.push(() => follower.stop())
  return { follower, cache, updates }
}

/** Our own service making a block every 100 ms (newHeads over its WebSocket), closed after the test. */
async function fastService() {
  const service = await startService({ port: 0, quiet: true, rateLimit: 0, blockTimeMs: 100, flashblockIntervalMs: 50 })
  cleanups.push(() => service.close())
  return service
}

const hashOf = (b: BlockRecord) => data(b.hash)

/** Every cached block is the upstream's block at that number. */
async function expectCacheEqualsUpstream(url: string, cache: BlockCache): Promise<void> {
  for (const block of cache.range(0n, cache.latest()!.number)) {
    const theirs = await rpc(url, 'eth_getBlockByNumber', [`0x${block.number.toString(16)}`, false])
    expect(hashOf(block)).toBe(theirs.hash)
  }
}

describe('HeadFollower', () => {
  test('over a newHeads subscription, every block of a fast upstream arrives once and in order', async () => {
    const service = await fastService()
    const { follower, cache, updates } = await follow(service.url, { wsUrl: wsUrlOf(service.url) })
    const first = cache.latest()!.number
    await until('20 blocks', () => cache.latest()!.number >= first + 20n)
    await until('the subscription', () => follower.health().subscribed)
    const added = updates.flatMap((u) => u.added.map((b) => b.number))
    expect(updates.every((u) => u.removed.length === 0)).toBe(true)
    expect(added).toEqual(added.map((_, i) => first + BigInt(i))) // the first update is the head it started from
    await expectCacheEqualsUpstream(service.url, cache)
    expect(follower.health()).toMatchObject({ reachable: true, subscribed: true, head: cache.latest()!.number })
  }, 60_000)

  test('polling without a socket fills a gap of 40 blocks mined at once, in order and linked', async () => {
    const anvil = await startAnvil()
    cleanups.push(() => anvil.close())
    const { follower, cache, updates } = await follow(anvil.url)
    expect(cache.latest()!.number).toBe(0n)
    await rpc(anvil.url, 'anvil_mine', ['0x28'])
    await until('block 40', () => cache.latest()?.number === 40n)
    expect(updates.flatMap((u) => u.added.map((b) => b.number))).toEqual(
      Array.from({ length: 41 }, (_, i) => BigInt(i)),
    )
    await expectCacheEqualsUpstream(anvil.url, cache)
    expect(follower.health().subscribed).toBe(false)
  }, 60_000)

  test('a gap wider than the cache fetches only the cache’s depth of blocks, the newest ones', async () => {
    const anvil = await startAnvil()
    cleanups.push(() => anvil.close())
    const { cache, updates } = await follow(anvil.url, { cache: new BlockCache(8), pollIntervalMs: 1_000 })
    await rpc(anvil.url, 'anvil_mine', ['0x28'])
    await until('block 40', () => cache.latest()?.number === 40n)
    // (a poll in the middle of anvil_mine would skip twice: still ascending, still far fewer than 40)
    const added = updates.slice(1).flatMap((u) => u.added.map((b) => b.number))
    expect(added.slice(-8)).toEqual([33n, 34n, 35n, 36n, 37n, 38n, 39n, 40n])
    expect(added.length).toBeLessThan(40)
    expect(added).toEqual([...added].sort((a, b) => Number(a - b)))
    expect(updates.every((u) => u.removed.length === 0)).toBe(true)
    expect(cache.oldest()!.number).toBe(33n)
    await expectCacheEqualsUpstream(anvil.url, cache)
  }, 60_000)

  test('a same-height reorg (anvil_reorg) reports the replaced blocks, and their transaction leaves the cache', async () => {
    const anvil = await startAnvil()
    cleanups.push(() => anvil.close())
    const { follower, cache, updates } = await follow(anvil.url, { wsUrl: wsUrlOf(anvil.url) })
    await until('the subscription', () => follower.health().subscribed)
    const tx = await rpc(anvil.url, 'eth_sendTransaction', [{ from: DEV0, to: DEV1, value: '0x1' }])
    await rpc(anvil.url, 'anvil_mine', ['0x2'])
    await until('block 3', () => cache.latest()?.number === 3n)
    expect(cache.tx(Buffer.from(tx.slice(2), 'hex'))?.block.number).toBe(1n)
    const replaced = [1n, 2n, 3n].map((n) => hashOf(cache.byNumber(n)!))

    const before = updates.length
    await rpc(anvil.url, 'anvil_reorg', [3, []])
    const latest = await rpc(anvil.url, 'eth_getBlockByNumber', ['latest', false])
    await until('the new head', () => hashOf(cache.latest()!) === latest.hash)
    // the follower may wake while anvil is still mining the new branch: the reorg can come in more than one update
    const after = updates.slice(before)
    expect(after.flatMap((u) => u.removed.map(hashOf))).toEqual(replaced)
    expect(after.flatMap((u) => u.added.map((b) => b.number))).toEqual([1n, 2n, 3n])
    expect(after.flatMap((u) => u.added.map(hashOf))).not.toContain(replaced[0])
    await expectCacheEqualsUpstream(anvil.url, cache)
    // the cache says of the transaction what the upstream now says
    const upstreamTx = await rpc(anvil.url, 'eth_getTransactionByHash', [tx])
    const cached = cache.tx(Buffer.from(tx.slice(2), 'hex'))
    expect(cached ? hashOf(cached.block) : null).toBe(upstreamTx?.blockHash ?? null)
  }, 60_000)

  test('evm_revert to a snapshot and a different block: the abandoned blocks are reported removed', async () => {
    const anvil = await startAnvil()
    cleanups.push(() => anvil.close())
    const { cache, updates } = await follow(anvil.url, { pollIntervalMs: 50 })
    await rpc(anvil.url, 'anvil_mine', ['0x2'])
    const snapshot = await rpc(anvil.url, 'evm_snapshot')
    await rpc(anvil.url, 'eth_sendTransaction', [{ from: DEV0, to: DEV1, value: '0x1' }])
    await rpc(anvil.url, 'anvil_mine', ['0x2'])
    await until('block 5', () => cache.latest()?.number === 5n)
    const abandoned = [3n, 4n, 5n].map((n) => hashOf(cache.byNumber(n)!))

    await rpc(anvil.url, 'evm_revert', [snapshot])
    const sent = await rpc(anvil.url, 'eth_sendTransaction', [{ from: DEV0, to: DEV1, value: '0x2' }])
    // anvil answers the hash before it mines the block: the new head is the block holding the transaction
    await until(
      'anvil to mine the transaction',
      async () => (await rpc(anvil.url, 'eth_getTransactionReceipt', [sent])) !== null,
    )
    const latest = await rpc(anvil.url, 'eth_getBlockByNumber', ['latest', false])
    await until('the new head', () => cache.latest() !== undefined && hashOf(cache.latest()!) === latest.hash)
    const removed = updates.flatMap((u) => u.removed.map(hashOf))
    expect(removed).toEqual(abandoned)
    expect(cache.latest()!.number).toBe(3n)
    await expectCacheEqualsUpstream(anvil.url, cache)
  }, 60_000)

  test('an upstream that dies is reported unreachable; a new one on the same port is followed from its own chain', async () => {
    const anvil = await startAnvil()
    const port = Number(new URL(anvil.url).port)
    const { follower, cache, updates } = await follow(anvil.url, { wsUrl: wsUrlOf(anvil.url) })
    await rpc(anvil.url, 'anvil_mine', ['0x3'])
    await until('block 3', () => cache.latest()?.number === 3n)
    const old = [...cache.range(0n, 3n)].map(hashOf)

    anvil.close()
    await until('unreachable', () => !follower.health().reachable)
    expect(follower.health()).toMatchObject({ reachable: false, subscribed: false, head: 3n })
    expect(follower.health().lastError).toMatch(upstreamGone(anvil.url))

    // another genesis time: started within the same second, the new chain's first blocks would be the old ones
    const again = await startAnvil(['--timestamp', String(Math.floor(Date.now() / 1000) + 3_600)], port)
    cleanups.push(() => again.close())
    await rpc(again.url, 'anvil_mine', ['0x1'])
    const latest = await rpc(again.url, 'eth_getBlockByNumber', ['latest', false])
    await until('the new chain', () => hashOf(cache.latest()!) === latest.hash)
    expect(follower.health()).toMatchObject({ reachable: true, lastError: undefined })
    expect(updates.flatMap((u) => u.removed.map(hashOf))).toEqual(old)
    await expectCacheEqualsUpstream(again.url, cache)
    await until('the subscription again', () => follower.health().subscribed)
  }, 60_000)

  test('a frozen upstream (SIGSTOP) is reported at the deadline, and followed again after SIGCONT', async () => {
    const anvil = await startAnvil()
    cleanups.push(() => anvil.close())
    const { follower, cache } = await follow(anvil.url, { rpc: new UpstreamClient(anvil.url, { timeoutMs: 300 }) })
    await freeze(anvil.pid)
    try {
      await until('unreachable', () => !follower.health().reachable)
      expect(follower.health().lastError).toBe(`upstream ${anvil.url} unavailable: no answer within 300 ms`)
    } finally {
      process.kill(anvil.pid, 'SIGCONT')
    }
    await rpc(anvil.url, 'anvil_mine', ['0x2'])
    await until('block 2', () => cache.latest()?.number === 2n)
    expect(follower.health().reachable).toBe(true)
  }, 60_000)

  test('start rejects with the upstream error when the upstream cannot be reached', async () => {
    const follower = new HeadFollower({
      rpc: new UpstreamClient('http://127.0.0.1:9'),
      common,
      cache: new BlockCache(),
      wsUrl: false,
    })
    await expect(follower.start()).rejects.toThrow(/upstream http:\/\/127\.0\.0\.1:9 unavailable/)
    expect(follower.health()).toMatchObject({ reachable: false, subscribed: false, head: undefined })
  })

  test('a newHeads handshake the upstream never answers is given up after --upstream-timeout and retried, while heads arrive by polling', async () => {
    const service = await fastService()
    // accepts the upgrade request and never answers it: a hung node whose listener still works
    const connections: { openedAt: number; closedAt?: number }[] = []
    const sockets = new Set<Socket>()
    const silent = createServer((socket) => {
      const held: (typeof connections)[number] = { openedAt: performance.now() }
      connections.push(held)
      sockets.add(socket)
      socket.resume() // reads the request (and so sees the client's end), answers nothing
      socket.on('close', () => {
        held.closedAt = performance.now()
      })
    }).listen(0, '127.0.0.1')
    await once(silent, 'listening')
    cleanups.push(() => {
      for (const socket of sockets) socket.destroy()
      return new Promise((resolve) => silent.close(resolve))
    })
    // above the 5 s the handshake had fixed before: the lower bound below tells the two apart, and slowness
    // can only lengthen what it measures
    const timeoutMs = 6_000
    const { port } = silent.address() as { port: number }
    const { follower, cache } = await follow(service.url, {
      wsUrl: `ws://127.0.0.1:${port}/`,
      upstreamTimeoutMs: timeoutMs,
    })
    const first = cache.latest()!.number
    await until('blocks by polling', () => cache.latest()!.number >= first + 3n)
    await until('the first handshake given up', () => connections[0]?.closedAt !== undefined, 60_000)
    await until('a second handshake', () => connections.length >= 2, 30_000)
    expect(connections[0].closedAt! - connections[0].openedAt).toBeGreaterThanOrEqual(timeoutMs - 20)
    expect(follower.health().subscribed).toBe(false)
    await expectCacheEqualsUpstream(service.url, cache)
  }, 90_000)
})
