/**
 * A reorg of preconfirmed state, with what a client sees. anvil (no mining, first-in first-out) is the
 * upstream and a test feed the sequencer: block N's flashblocks hold A (BOB sends CAROL tokens) and B; the
 * sequencer, ahead of anvil, publishes block N+1 with D (CAROL passes tokens on, which only works after A).
 * Then anvil mines N without A and with C instead: the canonical block differs from its flashblocks. The
 * follower sends A's preconfirmed log out again `removed: true`, rebuilds N+1 from its flashblock on the
 * canonical N (D now reverts), and when anvil mines D, its receipt is the rebuilt one.
 */
import { type Hex, keccak256 } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { type AnvilFollower, DAVE, DEPLOYER, ERIN, startAnvilFollower, tokenCall } from '../support/anvil-follower.js'
import { BOB, CAROL, DEV_KEY_2 } from '../support/dev-keys.js'
import { TRANSFER_TOPIC } from '../support/fixtures.js'
import { call } from '../support/rpc.js'
import { until } from '../support/wait-for.js'
import { subscribe } from '../support/ws-notifications.js'

type Log = { transactionHash: Hex; removed: boolean; topics: Hex[] }
let setup: AnvilFollower

beforeAll(async () => {
  setup = await startAnvilFollower()
}, 60_000)
afterAll(() => setup?.close())

test('a canonical block without a preconfirmed transaction: its logs come back removed, later pending is rebuilt on the canonical block', async () => {
  const { anvil, follower, flashblocks, token, send } = setup
  const latest = await setup.caughtUp()
  const n = BigInt(latest.number) + 1n
  const pendingLogs = await subscribe<Log>(`${follower.wsUrl}flashblocks`, ['pendingLogs', { address: token }])
  const canonicalLogs = await subscribe<Log>(follower.wsUrl, ['logs', { address: token }])
  const filter = await call(follower.url, 'eth_newFilter', [{ address: token }])
  const timestamp = BigInt(latest.timestamp) + 2n
  await flashblocks.pinTimestamp(timestamp)

  const a = await send({ from: BOB, to: token, data: tokenCall('transfer', [CAROL, 999n]), gas: '0x186a0' })
  const b = await send({ from: DAVE, to: ERIN, value: '0x1', gas: '0x5208' })
  const fbN = await flashblocks.flash()
  // the sequencer's next block, which anvil has not seen: CAROL passes on tokens she has only after A
  const carol = privateKeyToAccount(DEV_KEY_2)
  const d = await carol.signTransaction({
    type: 'legacy',
    chainId: 196,
    nonce: Number(await call(anvil.url, 'eth_getTransactionCount', [CAROL, 'latest'])),
    to: token,
    data: tokenCall('transfer', [DAVE, 500n]),
    gas: 100_000n,
    gasPrice: 2_000_000_000n,
  })
  // D is legacy: its receipt does not depend on the base fee the sequencer guessed for N+1
  flashblocks.flashChild([d], BigInt(fbN.base!.base_fee_per_gas), timestamp + 1n)
  const dHash = keccak256(d)
  const preconf = follower.flashblocksUrl
  await until(async () => (await call(preconf, 'eth_getTransactionReceipt', [dHash])) !== null, 'D preconfirmed')
  const before = await call(preconf, 'eth_getTransactionReceipt', [dHash])
  expect([before.status, before.blockNumber]).toEqual(['0x1', `0x${(n + 1n).toString(16)}`])
  expect(pendingLogs.seen.map((l) => [l.transactionHash, l.removed])).toEqual([
    [a, false],
    [dHash, false],
  ])

  // anvil mines N without A, with C in its place
  await call(anvil.url, 'anvil_dropTransaction', [a])
  const c = await send({ from: DEPLOYER, to: token, data: tokenCall('transfer', [ERIN, 5n]), gas: '0x186a0' })
  await call(anvil.url, 'evm_mine')
  const canonicalN = await call(anvil.url, 'eth_getBlockByNumber', ['latest', false])
  expect(canonicalN.transactions).toEqual([b, c])

  await until(
    async () => (await call(preconf, 'eth_getTransactionReceipt', [dHash]))?.status === '0x0',
    'D rebuilt on the canonical block',
  )
  // pendingLogs: A's and D's logs went out again removed (A never canonical, D rebuilt without a log)
  expect(pendingLogs.seen.map((l) => [l.transactionHash, l.removed])).toEqual([
    [a, false],
    [dHash, false],
    [a, true],
    [dHash, true],
  ])
  for (const url of [follower.url, preconf]) expect(await call(url, 'eth_getTransactionReceipt', [a])).toBeNull()
  const pendingBlock = await call(preconf, 'eth_getBlockByNumber', ['pending', false])
  expect([pendingBlock.number, pendingBlock.parentHash, pendingBlock.transactions]).toEqual([
    `0x${(n + 1n).toString(16)}`,
    canonicalN.hash,
    [dHash],
  ])
  expect(await call(preconf, 'eth_call', [{ to: token, data: tokenCall('balanceOf', [CAROL]) }, 'pending'])).toBe(
    await call(anvil.url, 'eth_call', [{ to: token, data: tokenCall('balanceOf', [CAROL]) }, 'latest']),
  )
  // canonical subscribers and filters only ever saw canonical logs
  await until(() => canonicalLogs.seen.length > 0, "C's log")
  expect(canonicalLogs.seen.map((l) => [l.transactionHash, l.removed])).toEqual([[c, false]])
  expect((await call(follower.url, 'eth_getFilterChanges', [filter])).map((l: Log) => l.transactionHash)).toEqual([c])
  expect(follower.follower.status().follower!.pending).toMatchObject({ reorgs: 1, rebuilds: 1 })

  // anvil mines D on top: the receipt the follower rebuilt is anvil's
  const rebuilt = await call(preconf, 'eth_getTransactionReceipt', [dHash])
  await call(anvil.url, 'eth_sendRawTransaction', [d])
  await flashblocks.pinTimestamp(timestamp + 1n)
  await call(anvil.url, 'evm_mine')
  const mined = await call(anvil.url, 'eth_getTransactionReceipt', [dHash])
  for (const key of ['status', 'gasUsed', 'cumulativeGasUsed', 'effectiveGasPrice', 'blockNumber', 'logs', 'logsBloom'])
    expect([key, rebuilt[key]]).toEqual([key, mined[key]])
  await until(
    async () => (await call(follower.url, 'eth_getTransactionReceipt', [dHash])) !== null,
    'D canonical on the follower',
  )
  expect(follower.follower.status().follower!.pending).toMatchObject({ matched: 1, reorgs: 1, rebuilds: 1 })
  expect(pendingLogs.seen.filter((l) => l.topics[0] !== TRANSFER_TOPIC)).toEqual([])
  pendingLogs.close()
  canonicalLogs.close()
}, 120_000)
