/**
 * A feed that repeats, skips and reorders frames, with what a client of the follower sees. anvil (no mining)
 * holds four transfers; the test feed prepares one flashblock per transfer (indexes 0-3 of block N) and sends
 * them as 0, 0 again (brotli), 2, 1, 3: the duplicate changes nothing, the gap at 2 drops pending to latest,
 * the late 1 and the 3 after the gap are not applied; anvil's block N then makes all four canonical, a frame
 * of N sent again is stale and ignored, and block N+1's index 0 brings preconfirmations back.
 */
import type { Hex } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { type AnvilFollower, DAVE, DEPLOYER, ERIN, startAnvilFollower } from '../support/anvil-follower.js'
import { BOB, CAROL } from '../support/dev-keys.js'
import { call } from '../support/rpc.js'
import { until } from '../support/wait-for.js'
import { subscribe } from '../support/ws-notifications.js'

let setup: AnvilFollower

beforeAll(async () => {
  setup = await startAnvilFollower()
}, 60_000)
afterAll(() => setup?.close())

test('a duplicate changes nothing, a gap drops pending to latest until the next index 0, late and stale frames are ignored', async () => {
  const { anvil, feed, follower, flashblocks, send } = setup
  const latest = await setup.caughtUp()
  const n = BigInt(latest.number) + 1n
  await flashblocks.pinTimestamp(BigInt(latest.timestamp) + 2n)
  const flashblockHeads = await subscribe<{ number: Hex; transactions: Hex[] }>(`${follower.wsUrl}flashblocks`, [
    'newFlashblocks',
  ])
  const preconf = follower.flashblocksUrl
  const preconfirmed = async (hash: Hex) => (await call(preconf, 'eth_getTransactionReceipt', [hash])) !== null
  const metrics = () => follower.follower.status().follower!
  const dropped = () => metrics().pending?.dropped ?? 0

  const txs: Hex[] = []
  const frames = []
  for (const from of [DEPLOYER, BOB, CAROL, DAVE]) {
    txs.push(await send({ from, to: ERIN, value: '0x1', gas: '0x5208' }))
    frames.push(await flashblocks.flash({ publish: false }))
  }
  expect(frames.map((f) => f.index)).toEqual([0, 1, 2, 3])

  feed.send(frames[0])
  await until(() => preconfirmed(txs[0]), 'index 0 preconfirmed')
  expect(flashblockHeads.seen).toHaveLength(1)

  feed.send(frames[0], 'brotli')
  await until(() => metrics().feed?.duplicates === 1, 'the duplicate counted')
  expect(await preconfirmed(txs[0])).toBe(true)
  expect(flashblockHeads.seen).toHaveLength(1)

  const droppedBefore = dropped()
  feed.send(frames[2])
  await until(() => dropped() === droppedBefore + 1, 'the gap')
  // pending is latest again: the preconfirmation of index 0 is gone until the block is canonical
  expect(await preconfirmed(txs[0])).toBe(false)
  expect((await call(preconf, 'eth_getBlockByNumber', ['pending', false])).hash).toBe(latest.hash)

  feed.send(frames[1])
  feed.send(frames[3])
  await until(() => dropped() === droppedBefore + 3, 'the late index 1 and the index 3 after the gap refused')
  for (const hash of txs) expect(await preconfirmed(hash)).toBe(false)
  expect(flashblockHeads.seen).toHaveLength(1)

  await call(anvil.url, 'evm_mine')
  for (const url of [follower.url, preconf]) {
    await until(async () => (await call(url, 'eth_getTransactionReceipt', [txs[3]])) !== null, 'block N canonical')
    for (const hash of txs)
      expect((await call(url, 'eth_getTransactionReceipt', [hash])).blockNumber).toBe(`0x${n.toString(16)}`)
  }

  // a frame of block N, now canonical, then block N+1's index 0: only N+1 reaches clients
  feed.send(frames[0])
  const next = await send({ from: ERIN, to: BOB, value: '0x1', gas: '0x5208' })
  await flashblocks.flash()
  await until(() => preconfirmed(next), 'block N+1 preconfirmed')
  expect(flashblockHeads.seen.map((b) => [b.number, b.transactions.length])).toEqual([
    [`0x${n.toString(16)}`, 1],
    [`0x${(n + 1n).toString(16)}`, 1],
  ])
  flashblockHeads.close()
}, 90_000)
