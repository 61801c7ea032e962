/**
 * anvil as the upstream *with* a feed: anvil runs without mining, first-in first-out, its next block's
 * timestamp pinned; a test feed publishes flashblocks of the transactions waiting in anvil's pool (anvil's
 * pending block gives their order and the block's header fields). The follower re-executes them on anvil's
 * state; then anvil mines that block, and what the follower had preconfirmed (receipts, logs, balances,
 * nonces, token balances) is what anvil produced.
 */
import { encodeDeployData, encodeFunctionData, type Hex } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { type RunningFollower, startService } from '../../src/service.js'
import { AnvilFlashblocks } from '../support/anvil-flashblocks.js'
import { type RunningAnvil, startAnvil } from '../support/anvil.js'
import { BOB, CAROL, devAccount } from '../support/dev-keys.js'
import { testToken } from '../support/fixtures.js'
import { call } from '../support/rpc.js'
import { startTestFeed, type TestFeed } from '../support/test-feed.js'
import { until } from '../support/wait-for.js'

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

beforeAll(async () => {
  anvil = await startAnvil(['--no-mining', '--order', 'fifo'])
  feed = await startTestFeed()
  follower = await startService({
    port: 0,
    quiet: true,
    rateLimit: 0,
    upstream: anvil.url,
    upstreamFeed: feed.url,
    // frames come when the test sends them, seconds apart on a loaded machine
    flashblocksIdleTimeoutMs: 600_000,
  })
  await feed.connected()
  const deploy = await send({
    from: DEPLOYER,
    data: encodeDeployData({ abi: testToken.abi, bytecode: testToken.bytecode, args: [10n ** 24n] }),
    gas: '0x2dc6c0',
  })
  await send({ from: DEPLOYER, to: BOB, value: '0x0', gas: '0x5208' })
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

test("the follower's pending receipts, logs, balances and nonces equal what anvil mines from the same pool", async () => {
  const latest = await call(anvil.url, 'eth_getBlockByNumber', ['latest', false])
  await until(async () => (await call(follower.url, 'eth_blockNumber')) === latest.number, 'the follower at anvil head')
  const flashblocks = new AnvilFlashblocks(anvil.url, feed)
  await flashblocks.pinTimestamp(BigInt(latest.timestamp) + 2n)

  // index 0: a token transfer, an ETH transfer (legacy), a transfer that reverts, a token transfer by BOB
  const first = [
    await send({ from: DEPLOYER, to: token, data: tokenCall('transfer', [CAROL, 10n]), gas: '0x186a0' }),
    await send({ from: BOB, to: CAROL, value: '0xde0b6b3a7640000', gas: '0x5208', gasPrice: '0x77359400' }),
    await send({ from: CAROL, to: token, data: tokenCall('transfer', [BOB, 10n ** 30n]), gas: '0x186a0' }),
    await send({ from: BOB, to: token, data: tokenCall('transfer', [DAVE, 7n]), gas: '0x186a0' }),
  ]
  await flashblocks.flash()
  // index 1: the next nonces of the same senders and a new one, EIP-1559
  const second = [
    await send({ from: DEPLOYER, to: token, data: tokenCall('transfer', [ERIN, 3n]), gas: '0x186a0' }),
    await send({
      from: DAVE,
      to: ERIN,
      value: '0x1',
      gas: '0x5208',
      maxFeePerGas: '0x12a05f200',
      maxPriorityFeePerGas: '0x3b9aca00',
    }),
    await send({ from: BOB, to: token, data: tokenCall('transfer', [ERIN, 1n]), gas: '0x186a0' }),
  ]
  await flashblocks.flash()
  const hashes = [...first, ...second]
  const preconf = follower.flashblocksUrl
  await until(
    async () => (await Promise.all(hashes.map((h) => call(preconf, 'eth_getTransactionReceipt', [h])))).every(Boolean),
    'every transaction preconfirmed by the follower',
  )

  const accounts = [DEPLOYER, BOB, CAROL, DAVE, ERIN]
  const stateOf = async (url: string, tag: string) => ({
    receipts: await Promise.all(
      hashes.map(async (h) => receiptFacts(await call(url, 'eth_getTransactionReceipt', [h]))),
    ),
    balances: await Promise.all(accounts.map((a) => call(url, 'eth_getBalance', [a, tag]))),
    nonces: await Promise.all(accounts.map((a) => call(url, 'eth_getTransactionCount', [a, tag]))),
    tokens: await Promise.all(
      accounts.map((a) => call(url, 'eth_call', [{ to: token, data: tokenCall('balanceOf', [a]) }, tag])),
    ),
    logs: (await call(url, 'eth_getLogs', [{ fromBlock: tag, toBlock: tag, address: token }])).map(logFacts),
  })
  const pending = await stateOf(preconf, 'pending')
  expect(await call(anvil.url, 'eth_getTransactionReceipt', [first[0]])).toBeNull() // anvil has not mined yet

  await call(anvil.url, 'evm_mine')
  const mined = await stateOf(anvil.url, 'latest')
  expect(pending.receipts.map((r) => r.status)).toEqual(['0x1', '0x1', '0x0', '0x1', '0x1', '0x1', '0x1'])
  expect(pending.logs).toHaveLength(4)
  expect(pending).toEqual(mined)

  // the follower then sees anvil's block: it matches the flashblocks and replaces pending
  await until(
    async () => (await call(follower.url, 'eth_getTransactionReceipt', [second[2]]))?.blockHash !== undefined,
    'the mined block on the follower',
  )
  expect(follower.follower.metrics().pending).toMatchObject({ matched: 1, reorgs: 0 })
  expect(receiptFacts(await call(follower.url, 'eth_getTransactionReceipt', [second[2]]))).toEqual(mined.receipts[6])
}, 90_000)

/** What re-execution decides about a transaction (hashes of the block it ends in differ by design). */
function receiptFacts(r: Record<string, unknown> & { logs: Record<string, unknown>[] }) {
  const { status, gasUsed, cumulativeGasUsed, effectiveGasPrice, type, from, to, contractAddress, logsBloom } = r
  const { blockNumber, transactionIndex, transactionHash } = r
  return {
    ...{ status, gasUsed, cumulativeGasUsed, effectiveGasPrice, type, from, to, contractAddress, logsBloom },
    ...{ blockNumber, transactionIndex, transactionHash },
    logs: r.logs.map(logFacts),
  }
}

function logFacts(l: Record<string, unknown>) {
  const { address, topics, data, logIndex, transactionIndex, transactionHash, blockNumber, removed } = l
  return { address, topics, data, logIndex, transactionIndex, transactionHash, blockNumber, removed }
}
