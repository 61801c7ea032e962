/**
 * A node no one here wrote as the upstream: anvil, followed without a feed (pending = latest). The follower
 * serves anvil's chain id, blocks, receipts and state, and an anvil reorg (evm_revert, then another block)
 * reaches a `logs` subscriber on the follower as the abandoned logs again with `removed: true`.
 */
import { encodeDeployData, encodeFunctionData, type Hex } from 'viem'
import WebSocket from 'ws'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type RunningFollower, startService } from '../../src/service.js'
import { type RunningAnvil, startAnvil } from '../support/anvil.js'
import { BOB, devAccount } from '../support/dev-keys.js'
import { TRANSFER_TOPIC, testToken } from '../support/fixtures.js'
import { rpc } from '../support/rpc.js'
import { until } from '../support/wait-for.js'

let anvil: RunningAnvil
let follower: RunningFollower

const call = async (url: string, method: string, params: unknown[] = []) => {
  const reply = await rpc(url, method, params)
  if (reply.error) throw new Error(`${method}: ${reply.error.message}`)
  // biome-ignore lint/suspicious/noExplicitAny: JSON answers, compared field by field as they come
  return reply.result as any
}
const sameHead = () =>
  until(
    async () => (await call(follower.url, 'eth_blockNumber')) === (await call(anvil.url, 'eth_blockNumber')),
    'the follower to reach anvil head',
  )
const from = devAccount.address
/** anvil mines each sent transaction, but answers the send before the block exists. */
const mined = async (hash: Hex) => {
  await until(async () => (await call(anvil.url, 'eth_getTransactionReceipt', [hash])) !== null, 'anvil to mine')
  return call(anvil.url, 'eth_getTransactionReceipt', [hash])
}

beforeAll(async () => {
  anvil = await startAnvil()
  follower = await startService({ port: 0, quiet: true, rateLimit: 0, upstream: anvil.url })
}, 60_000)
afterAll(async () => {
  await follower?.close()
  anvil?.close()
})

describe('anvil as the upstream', () => {
  let token: Hex

  test("the follower serves anvil's chain: blocks, receipts, logs and state as anvil answers them", async () => {
    const deploy = await call(anvil.url, 'eth_sendTransaction', [
      {
        from,
        data: encodeDeployData({ abi: testToken.abi, bytecode: testToken.bytecode, args: [10n ** 24n] }),
        gas: '0x2dc6c0',
      },
    ])
    token = (await mined(deploy)).contractAddress
    const transfer = await call(anvil.url, 'eth_sendTransaction', [
      {
        from,
        to: token,
        data: encodeFunctionData({ abi: testToken.abi, functionName: 'transfer', args: [BOB, 5n] }),
        gas: '0x186a0',
      },
    ])
    await mined(transfer)
    await sameHead()
    expect(await call(follower.url, 'eth_chainId')).toBe(await call(anvil.url, 'eth_chainId'))
    const ours = await call(follower.url, 'eth_getTransactionReceipt', [transfer])
    const theirs = await call(anvil.url, 'eth_getTransactionReceipt', [transfer])
    for (const key of [
      'blockHash',
      'blockNumber',
      'status',
      'gasUsed',
      'cumulativeGasUsed',
      'logsBloom',
      'effectiveGasPrice',
    ])
      expect([key, ours[key]]).toEqual([key, theirs[key]])
    expect(
      ours.logs.map((l: { address: string; topics: string[]; data: string; logIndex: string }) => [
        l.address,
        l.topics,
        l.data,
        l.logIndex,
      ]),
    ).toEqual(
      theirs.logs.map((l: { address: string; topics: string[]; data: string; logIndex: string }) => [
        l.address,
        l.topics,
        l.data,
        l.logIndex,
      ]),
    )
    const block = await call(follower.url, 'eth_getBlockByNumber', ['latest', true])
    const anvilBlock = await call(anvil.url, 'eth_getBlockByNumber', ['latest', true])
    expect([block.hash, block.stateRoot, block.transactions.map((t: { hash: string }) => t.hash)]).toEqual([
      anvilBlock.hash,
      anvilBlock.stateRoot,
      anvilBlock.transactions.map((t: { hash: string }) => t.hash),
    ])
    for (const [method, params] of [
      ['eth_getBalance', [BOB, 'latest']],
      ['eth_getTransactionCount', [from, 'latest']],
      ['eth_getCode', [token, 'latest']],
      ['eth_getStorageAt', [token, '0x0', 'latest']],
      ['eth_call', [{ to: token, data: balanceOf(BOB) }, 'latest']],
    ] as const)
      expect(await call(follower.url, method, [...params])).toEqual(await call(anvil.url, method, [...params]))
    // /flashblocks without a feed: pending is latest
    expect((await call(follower.flashblocksUrl, 'eth_getBlockByNumber', ['pending', false])).hash).toBe(block.hash)
  }, 60_000)

  test('an anvil reorg sends the abandoned logs to a logs subscriber and a log filter again with removed: true', async () => {
    const filter = await call(follower.url, 'eth_newFilter', [{ address: token, topics: [TRANSFER_TOPIC] }])
    const socket = new WebSocket(follower.wsUrl)
    await new Promise((resolve) => socket.once('open', resolve))
    const logs: { transactionHash: string; removed: boolean }[] = []
    let subscription: string | undefined
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString())
      if (message.method === 'eth_subscription') logs.push(message.params.result)
      if (message.id === 1) subscription = message.result
    })
    socket.send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'eth_subscribe',
        params: ['logs', { address: token, topics: [TRANSFER_TOPIC] }],
      }),
    )
    await until(() => subscription !== undefined, 'the subscription')
    const snapshot = await call(anvil.url, 'evm_snapshot')
    const transfer = await call(anvil.url, 'eth_sendTransaction', [
      {
        from,
        to: token,
        data: encodeFunctionData({ abi: testToken.abi, functionName: 'transfer', args: [BOB, 7n] }),
        gas: '0x186a0',
      },
    ])
    await until(() => logs.some((l) => l.transactionHash === transfer), 'the transfer log')
    const reported = await call(follower.url, 'eth_getFilterChanges', [filter])
    expect(reported.map((l: { transactionHash: string; removed: boolean }) => [l.transactionHash, l.removed])).toEqual([
      [transfer, false],
    ])
    await call(anvil.url, 'evm_revert', [snapshot])
    await call(anvil.url, 'anvil_mine', ['0x2'])
    await until(() => logs.some((l) => l.transactionHash === transfer && l.removed), 'the removed log')
    const [added, removed] = logs.filter((l) => l.transactionHash === transfer)
    expect(added.removed).toBe(false)
    expect({ ...removed, removed: false }).toEqual(added)
    await sameHead()
    expect(await call(follower.url, 'eth_getTransactionReceipt', [transfer])).toBeNull()
    // the filter's next poll: the reported log as it was, removed; the new branch has no transfer
    expect(await call(follower.url, 'eth_getFilterChanges', [filter])).toEqual([{ ...reported[0], removed: true }])
    socket.close()
  }, 60_000)
})

function balanceOf(owner: Hex): Hex {
  return encodeFunctionData({ abi: testToken.abi, functionName: 'balanceOf', args: [owner] })
}
