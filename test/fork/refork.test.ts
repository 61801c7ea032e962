/**
 * anvil_reset's re-fork (Chain.refork): a forked chain moves to a later block of its upstream, dropping
 * what it built locally, and builds on the new fork block; a node of another chain id, or a block still
 * open, is refused.
 */
import type { Hex } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { InvalidParamsError } from '../../src/errors.js'
import { type RunningService, startService } from '../../src/service.js'
import { type RunningAnvil, startAnvil } from '../support/anvil.js'
import { CAROL } from '../support/dev-keys.js'
import { deployOnUpstream, readsAt, signTokenTransfer, type Upstreamed } from '../support/fork-scenario.js'
import { call } from '../support/rpc.js'

let anvil: RunningAnvil
let other: RunningAnvil
let fork: RunningService
let upstreamed: Upstreamed
const FUNDED = 77n * 10n ** 18n

beforeAll(async () => {
  ;[anvil, other] = await Promise.all([startAnvil(['--chain-id', '31337']), startAnvil(['--chain-id', '1'])])
  upstreamed = await deployOnUpstream(anvil.url)
  fork = await startService({ port: 0, quiet: true, rateLimit: 0, mining: false, forkUrl: anvil.url, balance: FUNDED })
}, 60_000)
afterAll(async () => {
  await fork?.close()
  anvil?.close()
  other?.close()
})

test('a re-fork moves the chain to a later upstream block and drops what was built locally', async () => {
  const local = await call(fork.url, 'eth_sendRawTransaction', [
    await signTokenTransfer(fork.url, upstreamed.token, 3n),
  ])
  await fork.chain.mine()
  expect(await call(fork.url, 'eth_getTransactionReceipt', [local])).not.toBeNull()

  // the upstream moves on: a later block with a transfer of its own
  const later = await deployOnUpstream(anvil.url)
  const head: Hex = await call(anvil.url, 'eth_blockNumber')
  const genesis = await fork.chain.refork({ blockNumber: BigInt(head) })
  expect(genesis.number).toBe(BigInt(head))

  expect(await call(fork.url, 'eth_blockNumber')).toBe(head)
  expect(await call(fork.url, 'eth_getTransactionReceipt', [local])).toBeNull()
  expect(await readsAt(fork.url, head, later)).toEqual(await readsAt(anvil.url, head, later))

  const hash = await call(fork.url, 'eth_sendRawTransaction', [await signTokenTransfer(fork.url, later.token, 4n)])
  await fork.chain.buildNow()
  expect((await call(fork.flashblocksUrl, 'eth_getTransactionReceipt', [hash])).status).toBe('0x1')
  expect(BigInt(await call(fork.flashblocksUrl, 'eth_getBalance', [CAROL, 'pending']))).toBe(FUNDED)
  const block = await fork.chain.sealNow()
  expect(block.number).toBe(BigInt(head) + 1n)
  const parent = await call(anvil.url, 'eth_getBlockByNumber', [head, false])
  expect((await call(fork.url, 'eth_getBlockByNumber', ['latest', false])).parentHash).toBe(parent.hash)
})

test('a re-fork is refused on a chain that is not a fork', async () => {
  const plain = await startService({ port: 0, quiet: true, mining: false })
  try {
    await expect(plain.chain.refork({ url: anvil.url })).rejects.toThrow(
      new InvalidParamsError('forking needs a chain started with --fork-url'),
    )
  } finally {
    await plain.close()
  }
})

test('a re-fork is refused onto another chain id, or with a block open', async () => {
  await expect(fork.chain.refork({ url: other.url })).rejects.toThrow(InvalidParamsError)
  await fork.chain.buildNow()
  await expect(fork.chain.refork({})).rejects.toThrow(/discard it first/)
  await fork.chain.sealNow()
})

test('anvil_reset with forking re-forks through JSON-RPC, with a block open and transactions pooled', async () => {
  await call(fork.url, 'eth_sendRawTransaction', [await signTokenTransfer(fork.url, upstreamed.token, 5n)])
  await fork.chain.buildNow()
  const pooled = await call(fork.url, 'eth_sendRawTransaction', [
    await signTokenTransfer(fork.url, upstreamed.token, 6n),
  ])
  const later = await deployOnUpstream(anvil.url)
  const head: Hex = await call(anvil.url, 'eth_blockNumber')

  expect(await call(fork.url, 'anvil_reset', [{ forking: { jsonRpcUrl: anvil.url, blockNumber: head } }])).toBeNull()

  expect(await call(fork.url, 'eth_blockNumber')).toBe(head)
  expect(await call(fork.flashblocksUrl, 'eth_getTransactionByHash', [pooled])).toBeNull()
  expect(await readsAt(fork.url, head, later)).toEqual(await readsAt(anvil.url, head, later))
  const block = await fork.chain.sealNow()
  expect(block.number).toBe(BigInt(head) + 1n)
})

test('anvil_reset with forking is refused with -32602 on a chain started without --fork-url', async () => {
  const plain = await startService({ port: 0, quiet: true, mining: false })
  try {
    await expect(call(plain.url, 'anvil_reset', [{ forking: { jsonRpcUrl: anvil.url } }])).rejects.toThrow(
      /anvil_reset: -32602 .*--fork-url/,
    )
  } finally {
    await plain.close()
  }
})
