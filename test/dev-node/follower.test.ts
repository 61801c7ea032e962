/**
 * What a follower sees of a dev node: an impersonated transaction travels on the raw feed with its marker
 * signature (r = the sender, s = 1), and a follower of the dev node re-executes it as the sender the marker
 * names, preconfirmed on its /flashblocks and then canonical, as the leader shows it. The follower itself
 * serves no dev-node method.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { Hex } from 'viem'
import { startService, type RunningFollower, type RunningService } from '../../src/service.js'
import { BOB } from '../support/dev-keys.js'
import { call, rpc } from '../support/rpc.js'
import { until } from '../support/wait-for.js'

const X: Hex = '0x00000000000000000000000000000000000a11ce'

let leader: RunningService
let follower: RunningFollower

beforeAll(async () => {
  leader = await startService({ port: 0, quiet: true, rateLimit: 0, mining: false })
  follower = await startService({
    port: 0,
    quiet: true,
    rateLimit: 0,
    upstream: leader.url,
    upstreamFeed: `${leader.wsUrl}ws/flashblocks`,
  })
  // the follower joins a block at its index 0: none is open before it listens
  await until(() => leader.feed.count() > 0, 'the follower to connect to the raw feed')
})
afterAll(async () => {
  await follower?.close()
  await leader?.close()
})

test("a follower re-executes an impersonated transaction as the marker's sender, preconfirmed then canonical", async () => {
  await call(leader.url, 'anvil_setBalance', [X, '0xde0b6b3a7640000'])
  await call(leader.url, 'anvil_impersonateAccount', [X])
  const hash: Hex = await call(leader.url, 'eth_sendTransaction', [{ from: X, to: BOB, value: '0x2a' }])
  await leader.chain.buildNow() // index 0: the L1-info deposit and the impersonated transaction
  const preconfirmed = async () => (await rpc(follower.flashblocksUrl, 'eth_getTransactionReceipt', [hash])).result
  await until(async () => (await preconfirmed()) != null, 'the follower to preconfirm the impersonated transaction')
  expect(await preconfirmed()).toMatchObject({ from: X, status: '0x1' })
  expect((await rpc(follower.flashblocksUrl, 'eth_getTransactionByHash', [hash])).result).toMatchObject({
    from: X,
    s: '0x1',
  })

  await leader.chain.sealNow()
  const canonical = async () => (await rpc(follower.url, 'eth_getTransactionReceipt', [hash])).result
  await until(async () => (await canonical()) != null, 'the follower to see the sealed block')
  expect(await canonical()).toMatchObject({ from: X, status: '0x1', blockNumber: '0x1' })
  expect((await rpc(follower.url, 'anvil_impersonateAccount', [X])).error?.code).toBe(-32601)
})
