/**
 * The methods added for execution-apis' rpc-compat suite, served by a follower of one of our own services
 * (no feed: pending = latest): after the follower reached the leader's head, each answers exactly as the
 * leader does: raw encodings, proofs (forwarded: a follower holds no trie), batched storage, access lists
 * (run on the follower's own EVM over upstream state), fee and fork facts.
 */
import { type Hex, encodeFunctionData } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Chain } from '../../src/chain/chain.js'
import { type RunningFollower, type RunningService, startService } from '../../src/service.js'
import { BOB } from '../support/dev-keys.js'
import { testToken } from '../support/fixtures.js'
import { startFrozenService } from '../support/harness.js'
import { rpc } from '../support/rpc.js'
import { sendScenario } from '../support/follower-scenario.js'
import { until } from '../support/wait-for.js'

let leader: RunningService
let follower: RunningFollower
let txs: Hex[]

const answer = async (url: string, method: string, params: unknown[]) => {
  const reply = await rpc(url, method, params)
  return reply.error ?? reply.result
}

beforeAll(async () => {
  leader = await startFrozenService()
  const chain = leader.chain as Chain
  const sealing = setInterval(() => void chain.mine(), 100)
  try {
    txs = await sendScenario(leader.url)
  } finally {
    clearInterval(sealing)
  }
  await chain.mine()
  follower = await startService({ port: 0, quiet: true, rateLimit: 0, upstream: leader.url })
  const head = await answer(leader.url, 'eth_blockNumber', [])
  await until(
    async () => (await answer(follower.url, 'eth_blockNumber', [])) === head,
    'the follower to reach the head',
  )
}, 60_000)
afterAll(async () => {
  await follower?.close()
  await leader?.close()
})

describe('a follower serves the rpc-compat methods as its leader', { timeout: 60_000 }, () => {
  test('every answer equals the leader’s', async () => {
    const receipt = (await answer(leader.url, 'eth_getTransactionReceipt', [txs[0]])) as { contractAddress: Hex }
    const token = receipt.contractAddress
    const transfer = encodeFunctionData({ abi: testToken.abi, functionName: 'transfer', args: [BOB, 1n] })
    const holder = (await answer(leader.url, 'eth_getTransactionByHash', [txs[0]])) as { from: Hex }
    const calls: [string, unknown[]][] = [
      ['debug_getRawBlock', ['0x1']],
      ['debug_getRawHeader', ['latest']],
      ['debug_getRawReceipts', ['0x2']],
      ['debug_getRawTransaction', [txs.at(-1)]],
      ['eth_getProof', [token, ['0x0', '0x2'], 'latest']],
      ['eth_getProof', [BOB, [], '0x1']],
      ['eth_getStorageValues', [{ [token]: ['0x0', '0x1', '0x2'] }, 'latest']],
      ['eth_createAccessList', [{ from: holder.from, to: token, input: transfer }, 'latest']],
      ['eth_baseFee', []],
      ['eth_blobBaseFee', []],
      ['eth_config', []],
      ['eth_capabilities', []],
      ['txpool_status', []],
      ['txpool_contentFrom', [BOB]],
    ]
    for (const [method, params] of calls) {
      const expected = await answer(leader.url, method, params)
      expect(expected, method).not.toHaveProperty('code')
      expect(await answer(follower.url, method, params), method).toEqual(expected)
    }
  })

  test('eth_simulateV1 runs calls on the follower’s own EVM to the leader’s results', async () => {
    const receipt = (await answer(leader.url, 'eth_getTransactionReceipt', [txs[0]])) as { contractAddress: Hex }
    const token = receipt.contractAddress
    const holder = (await answer(leader.url, 'eth_getTransactionByHash', [txs[0]])) as { from: Hex }
    const transfer = encodeFunctionData({ abi: testToken.abi, functionName: 'transfer', args: [BOB, 1n] })
    const balance = encodeFunctionData({ abi: testToken.abi, functionName: 'balanceOf', args: [BOB] })
    const payload = {
      blockStateCalls: [
        { calls: [{ from: holder.from, to: token, input: transfer }] },
        { calls: [{ to: token, input: balance }] },
      ],
    }
    type Simulated = { number: Hex; calls: { status: Hex; returnData: Hex; gasUsed: Hex }[] }[]
    const outcome = (blocks: Simulated) =>
      blocks.map((b) => ({
        number: b.number,
        calls: b.calls.map(({ status, returnData, gasUsed }) => ({ status, returnData, gasUsed })),
      }))
    const expected = (await answer(leader.url, 'eth_simulateV1', [payload, 'latest'])) as Simulated
    expect(expected[1]!.calls[0]!.status).toBe('0x1')
    const got = (await answer(follower.url, 'eth_simulateV1', [payload, 'latest'])) as Simulated
    expect(outcome(got)).toEqual(outcome(expected))
  })
  test('debug_traceCall and call overrides run on the follower’s own EVM to the leader’s answers', async () => {
    const receipt = (await answer(leader.url, 'eth_getTransactionReceipt', [txs[0]])) as { contractAddress: Hex }
    const token = receipt.contractAddress
    const holder = (await answer(leader.url, 'eth_getTransactionByHash', [txs[0]])) as { from: Hex }
    const call = {
      from: holder.from,
      to: token,
      input: encodeFunctionData({ abi: testToken.abi, functionName: 'increment' }),
    }
    const counter = `0x${'0'.repeat(63)}1`
    const stateOverrides = { [token]: { stateDiff: { [counter]: `0x${'0'.repeat(62)}29` } } }
    // NUMBER, MSTORE, RETURN: the block number the call sees
    const number = { to: BOB, input: '0x' }
    const numberCode = { [BOB]: { code: '0x4360005260206000f3' } }
    const placed = (await answer(leader.url, 'eth_getTransactionReceipt', [txs[1]])) as {
      blockNumber: Hex
      transactionIndex: Hex
    }
    const calls: [string, unknown[]][] = [
      ['debug_traceCall', [call, 'latest']],
      ['debug_traceCall', [call, placed.blockNumber, { tracer: 'prestateTracer', txIndex: placed.transactionIndex }]],
      ['debug_traceCall', [call, 'latest', { tracer: 'callTracer', tracerConfig: { withLog: true } }]],
      [
        'debug_traceCall',
        [call, 'latest', { tracer: 'prestateTracer', tracerConfig: { diffMode: true }, stateOverrides }],
      ],
      ['debug_traceCall', [call, '0x2', { tracer: 'prestateTracer', blockOverrides: { number: '0x3e8' } }]],
      ['eth_call', [number, 'latest', numberCode, { number: '0x3e8', time: '0x1' }]],
      ['eth_call', [call, 'latest', stateOverrides, { feeRecipient: BOB }]],
      ['eth_estimateGas', [call, 'latest', stateOverrides]],
      ['eth_estimateGas', [call, 'latest', {}, { number: '0x3e8' }]],
    ]
    for (const [method, params] of calls) {
      const expected = await answer(leader.url, method, params)
      expect(expected, method).not.toHaveProperty('code')
      expect(await answer(follower.url, method, params), `${method} ${JSON.stringify(params)}`).toEqual(expected)
    }
    expect(BigInt((await answer(follower.url, 'eth_call', calls[5]![1])) as Hex)).toBe(1000n)
  })

  test('a transaction of a block older than the follower holds is read from the upstream as the leader answers it', async () => {
    const oldest = follower.follower.cache.oldest()!.number
    for (const hash of txs) {
      const receipt = (await answer(leader.url, 'eth_getTransactionReceipt', [hash])) as { blockNumber: Hex }
      expect(BigInt(receipt.blockNumber)).toBeLessThan(oldest)
      expect(await answer(follower.url, 'eth_getTransactionReceipt', [hash])).toEqual(receipt)
      const tx = await answer(leader.url, 'eth_getTransactionByHash', [hash])
      expect(await answer(follower.flashblocksUrl, 'eth_getTransactionByHash', [hash])).toEqual(tx)
    }
  })
})
