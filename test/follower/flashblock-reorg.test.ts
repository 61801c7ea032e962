/**
 * A reorg of preconfirmed state, with what a client sees. anvil (no mining, first-in first-out) is the
 * upstream and a test feed the sequencer: block N's flashblocks hold A (BOB sends CAROL tokens) and B; the
 * sequencer, ahead of anvil, publishes block N+1 with D (CAROL passes tokens on, which only works after A).
 * Then anvil mines N without A and with C instead: the canonical block differs from its flashblocks. The
 * follower sends A's preconfirmed log out again `removed: true`, rebuilds N+1 from its flashblock on the
 * canonical N (D now reverts), and when anvil mines D, its receipt is the rebuilt one.
 */
import { encodeDeployData, encodeFunctionData, type Hex, keccak256 } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { type RunningFollower, startService } from '../../src/service.js'
import { AnvilFlashblocks } from '../support/anvil-flashblocks.js'
import { type RunningAnvil, startAnvil } from '../support/anvil.js'
import { BOB, CAROL, DEV_KEY_2, devAccount } from '../support/dev-keys.js'
import { TRANSFER_TOPIC, testToken } from '../support/fixtures.js'
import { call } from '../support/rpc.js'
import { startTestFeed, type TestFeed } from '../support/test-feed.js'
import { until } from '../support/wait-for.js'
import { subscribe } from '../support/ws-notifications.js'

const DEPLOYER = devAccount.address.toLowerCase() as Hex
const DAVE: Hex = '0x90f79bf6eb2c4f870365e785982e1f101e93b906' // dev account 3
const ERIN: Hex = '0x15d34aaf54267db7d7c367839aaf71a00a2c6a65' // dev account 4

let anvil: RunningAnvil
let feed: TestFeed
let follower: RunningFollower
let token: Hex

const send = (tx: Record<string, unknown>) => call<Hex>(anvil.url, 'eth_sendTransaction', [tx])
const tokenCall = (functionName: 'transfer' | 'balanceOf', args: unknown[]) =>
  encodeFunctionData({ abi: testToken.abi, functionName, args } as never) as Hex
type Log = { transactionHash: Hex; removed: boolean; topics: Hex[] }

beforeAll(async () => {
  anvil = await startAnvil(['--no-mining', '--order', 'fifo'])
  feed = await startTestFeed()
  follower = await startService({
    port: 0,
    quiet: true,
    rateLimit: 0,
    upstream: anvil.url,
    upstreamFeed: feed.url,
    flashblocksIdleTimeoutMs: 600_000,
  })
  await feed.connected()
  const deploy = await send({
    from: DEPLOYER,
    data: encodeDeployData({ abi: testToken.abi, bytecode: testToken.bytecode, args: [10n ** 24n] }),
    gas: '0x2dc6c0',
  })
  await call(anvil.url, 'evm_mine')
  token = (await call(anvil.url, 'eth_getTransactionReceipt', [deploy])).contractAddress
  await send({ from: DEPLOYER, to: token, data: tokenCall('transfer', [BOB, 1000n]), gas: '0x186a0' })
  await call(anvil.url, 'evm_mine')
}, 60_000)

afterAll(async () => {
  await follower?.close()
  await feed?.close()
  anvil?.close()
})

test('a canonical block without a preconfirmed transaction: its logs come back removed, later pending is rebuilt on the canonical block', async () => {
  const latest = await call(anvil.url, 'eth_getBlockByNumber', ['latest', false])
  const n = BigInt(latest.number) + 1n
  await until(async () => (await call(follower.url, 'eth_blockNumber')) === latest.number, 'the follower at anvil head')
  const pendingLogs = await subscribe<Log>(`${follower.wsUrl}flashblocks`, ['pendingLogs', { address: token }])
  const canonicalLogs = await subscribe<Log>(follower.wsUrl, ['logs', { address: token }])
  const filter = await call(follower.url, 'eth_newFilter', [{ address: token }])
  const flashblocks = new AnvilFlashblocks(anvil.url, feed)
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
  expect(follower.follower.metrics().pending).toMatchObject({ reorgs: 1, rebuilds: 1 })

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
  expect(follower.follower.metrics().pending).toMatchObject({ matched: 1, reorgs: 1, rebuilds: 1 })
  expect(pendingLogs.seen.filter((l) => l.topics[0] !== TRANSFER_TOPIC)).toEqual([])
  pendingLogs.close()
  canonicalLogs.close()
}, 120_000)
