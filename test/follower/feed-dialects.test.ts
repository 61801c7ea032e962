/**
 * A follower fed every producer's dialect ends with the leader's pending state. The leader (the embedded
 * service, building only when the test says) sends its flashblocks; a relay re-encodes each one as X Layer's
 * builder, op-rbuilder or Base's builder would put it on the wire (test/support/feed-dialects.ts, pinned to
 * test/fixtures/feed-dialects/) and sends it through a real feed socket to the follower, with a malformed
 * frame and a garbage one in between. The follower's pending block, receipts, balances and nonces then equal
 * the leader's; the bad frames are counted and the feed connection never drops.
 */
import { once } from 'node:events'
import { type Hex, encodeDeployData, encodeFunctionData, keccak256 } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterEach, describe, expect, test } from 'vitest'
import WebSocket from 'ws'
import type { Chain } from '../../src/chain/chain.js'
import { decodeFrame } from '../../src/feed/codec.js'
import { decodeFlashblock } from '../../src/feed/decode.js'
import { type FlashblocksPayload, isEndOfBlock } from '../../src/feed/wire.js'
import { parseData } from '../../src/format/hex.js'
import { type RunningFollower, type RunningService, startService } from '../../src/service.js'
import { BOB, CAROL, DEV_KEY_0, DEV_KEY_1 } from '../support/dev-keys.js'
import { DIALECTS, type Dialect, writeEnd, writeFrame, writeMessage } from '../support/feed-dialects.js'
import { testToken } from '../support/fixtures.js'
import { startFrozenService } from '../support/harness.js'
import { scrape } from '../support/prometheus.js'
import { call } from '../support/rpc.js'
import { type TestFeed, startTestFeed } from '../support/test-feed.js'
import { until } from '../support/wait-for.js'

let closers: (() => unknown)[] = []
afterEach(async () => {
  for (const close of closers.reverse()) await close()
  closers = []
})

/** The leader's feed, each message re-encoded in `dialect`, onto a test feed the follower reads. */
async function relay(leaderFeed: string, feed: TestFeed, dialect: Dialect): Promise<void> {
  const socket = new WebSocket(leaderFeed)
  closers.push(() => socket.terminate())
  socket.on('message', (data, isBinary) => {
    const message = decodeFrame(isBinary ? (data as Buffer) : data.toString())
    const written = isEndOfBlock(message)
      ? writeEnd(dialect, parseData(message.payload_id))
      : writeMessage(dialect, decodeFlashblock(message as FlashblocksPayload))
    if (written) feed.sendFrame(writeFrame(dialect, written))
  })
  await once(socket, 'open')
}

const fees = { maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 10n ** 9n, chainId: 196 } as const
const alice = privateKeyToAccount(DEV_KEY_0)
const bob = privateKeyToAccount(DEV_KEY_1)

describe.each(DIALECTS)('a follower reading the %s dialect', (dialect) => {
  test("ends with the leader's pending state; malformed frames are counted and the connection stays", async () => {
    const leader: RunningService = await startFrozenService()
    closers.push(() => leader.close())
    const chain = leader.chain as Chain
    const feed = await startTestFeed()
    closers.push(() => feed.close())
    await relay(`${leader.wsUrl}ws/flashblocks`, feed, dialect)
    const follower: RunningFollower = await startService({
      port: 0,
      quiet: true,
      rateLimit: 0,
      upstream: leader.url,
      upstreamFeed: feed.url,
      flashblocksIdleTimeoutMs: 3_600_000,
    })
    closers.push(() => follower.close())
    await feed.connected()
    const send = async (tx: Parameters<typeof alice.signTransaction>[0], from = alice) => {
      const raw = await from.signTransaction(tx)
      await call(leader.url, 'eth_sendRawTransaction', [raw])
      return keccak256(raw)
    }

    // a fresh block the follower sees from index 0
    await chain.sealNow()
    await chain.buildNow()
    const deploy = await send({
      ...fees,
      type: 'eip1559',
      nonce: 0,
      gas: 3_000_000n,
      data: encodeDeployData({ abi: testToken.abi, bytecode: testToken.bytecode, args: [10n ** 24n] }),
    })
    await send(
      { type: 'legacy', nonce: 0, to: BOB, value: 12_345n, gas: 21_000n, gasPrice: 10n ** 10n, chainId: 196 },
      bob,
    )
    await chain.buildNow()
    // between two flashblocks: a frame whose diff is malformed, and bytes that are not a frame at all
    feed.sendFrame(
      JSON.stringify({ payload_id: '0x0102030405060708', index: 7, diff: { state_root: '0xzz' }, metadata: {} }),
    )
    feed.sendFrame(Buffer.from([0x1e, 0x01, 0x02, 0x03]))
    const token = (await call(leader.flashblocksUrl, 'eth_getTransactionReceipt', [deploy])).contractAddress as Hex
    await send({
      ...fees,
      type: 'eip1559',
      nonce: 1,
      gas: 100_000n,
      to: token,
      data: encodeFunctionData({ abi: testToken.abi, functionName: 'transfer', args: [CAROL, 777n] }),
    })
    await chain.buildNow()

    const pendingOf = (url: string) => call(url, 'eth_getBlockByNumber', ['pending', true])
    const leaderPending = await pendingOf(leader.flashblocksUrl)
    await until(
      async () => (await pendingOf(follower.flashblocksUrl)).hash === leaderPending.hash,
      'the follower to catch up',
    )
    expect(leaderPending.transactions).toHaveLength(4) // the L1-info deposit and three
    expect(await pendingOf(follower.flashblocksUrl)).toEqual(leaderPending)
    const same = async (method: string, params: unknown[]) =>
      expect(await call(follower.flashblocksUrl, method, params)).toEqual(
        await call(leader.flashblocksUrl, method, params),
      )
    await same('eth_getBlockReceipts', ['pending'])
    for (const address of [alice.address, bob.address, BOB, CAROL, token]) {
      await same('eth_getBalance', [address, 'pending'])
      await same('eth_getTransactionCount', [address, 'pending'])
    }
    await same('eth_call', [
      { to: token, data: encodeFunctionData({ abi: testToken.abi, functionName: 'balanceOf', args: [CAROL] }) },
      'pending',
    ])

    const stats = follower.follower.feed!.stats
    expect(stats.decodeErrors).toBe(2)
    expect([stats.connects, stats.reconnects]).toEqual([1, 0])
    expect((await scrape(follower.url)).value('preconf_follower_feed_malformed_frames_total')).toBe(2)
  })
})
