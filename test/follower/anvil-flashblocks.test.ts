/**
 * anvil as the upstream *with* a feed: anvil runs without mining, first-in first-out, its next block's
 * timestamp pinned; a test feed publishes flashblocks of the transactions waiting in anvil's pool (anvil's
 * pending block gives their order and the block's header fields). The follower re-executes them on anvil's
 * state; then anvil mines that block, and what the follower had preconfirmed (receipts, logs, balances,
 * nonces, token balances, debug_traceTransaction's call traces) is what anvil produced.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import { type AnvilFollower, DAVE, DEPLOYER, ERIN, startAnvilFollower, tokenCall } from '../support/anvil-follower.js'
import { BOB, CAROL } from '../support/dev-keys.js'
import { call, rpc } from '../support/rpc.js'
import { until } from '../support/wait-for.js'

let setup: AnvilFollower

beforeAll(async () => {
  setup = await startAnvilFollower()
}, 60_000)
afterAll(() => setup?.close())

test("the follower's pending receipts, logs, balances, nonces and call traces equal what anvil mines from the same pool", async () => {
  const { anvil, follower, flashblocks, token, send } = setup
  const latest = await setup.caughtUp()
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
  // debug_trace* of preconfirmed transactions: re-executed here, the upstream has not got them
  const traced = [first[0], first[2], second[1]]
  const callTraces = async (url: string) =>
    Promise.all(traced.map((h) => call(url, 'debug_traceTransaction', [h, { tracer: 'callTracer' }])))
  const pendingTraces = await callTraces(preconf)
  const prestate = await rpc(preconf, 'debug_traceTransaction', [first[0], { tracer: 'prestateTracer' }])
  expect(prestate.error?.code).toBe(-32602)
  expect(await call(anvil.url, 'eth_getTransactionReceipt', [first[0]])).toBeNull() // anvil has not mined yet

  await call(anvil.url, 'evm_mine')
  const mined = await stateOf(anvil.url, 'latest')
  expect(pending.receipts.map((r) => r.status)).toEqual(['0x1', '0x1', '0x0', '0x1', '0x1', '0x1', '0x1'])
  expect(pending.logs).toHaveLength(4)
  expect(pending).toEqual(mined)
  expect(pendingTraces.map((t) => t.error ?? 'ok')).toEqual(['ok', 'execution reverted', 'ok'])
  // anvil's top-level gasUsed is the block's cumulative gas after the transaction; geth's (and ours) is the
  // transaction's own, its receipt's gasUsed: compared to the receipts, every other field to anvil's trace
  const withoutGasUsed = (traces: Record<string, unknown>[]) => traces.map(({ gasUsed, ...rest }) => rest)
  expect(withoutGasUsed(pendingTraces)).toEqual(withoutGasUsed(await callTraces(anvil.url)))
  expect(pendingTraces.map((t) => t.gasUsed)).toEqual(
    traced.map((h) => pending.receipts.find((r) => r.transactionHash === h)?.gasUsed),
  )

  // the follower then sees anvil's block: it matches the flashblocks and replaces pending
  await until(
    async () => (await call(follower.url, 'eth_getTransactionReceipt', [second[2]]))?.blockHash !== undefined,
    'the mined block on the follower',
  )
  expect(follower.follower.status().follower!.pending).toMatchObject({ matched: 1, reorgs: 0 })
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
