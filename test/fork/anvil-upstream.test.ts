/**
 * Fork mode over anvil (a node no one here wrote): the fork answers the upstream's chain id, and its
 * blocks, transactions, state and calls at the fork block as anvil does; dev accounts are funded on top;
 * a token transfer on the fork preconfirms in a flashblock before its block seals and never reaches anvil.
 */
import type { Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type RunningService, startService } from '../../src/service.js'
import { type RunningAnvil, startAnvil } from '../support/anvil.js'
import { CAROL } from '../support/dev-keys.js'
import {
  balanceOfBob,
  deployOnUpstream,
  readsAt,
  signTokenTransfer,
  type Upstreamed,
} from '../support/fork-scenario.js'
import { call } from '../support/rpc.js'

let anvil: RunningAnvil
let fork: RunningService
let upstreamed: Upstreamed
let forkBlock: Hex
const FUNDED = 123n * 10n ** 18n

beforeAll(async () => {
  anvil = await startAnvil(['--chain-id', '31337'])
  upstreamed = await deployOnUpstream(anvil.url)
  forkBlock = await call(anvil.url, 'eth_blockNumber')
  // no timers: the test builds flashblocks and seals blocks itself
  fork = await startService({ port: 0, quiet: true, rateLimit: 0, mining: false, forkUrl: anvil.url, balance: FUNDED })
}, 60_000)
afterAll(async () => {
  await fork?.close()
  anvil?.close()
})

describe('a fork of anvil', () => {
  test("answers the upstream's chain id and head", async () => {
    expect(await call(fork.url, 'eth_chainId')).toBe('0x7a69')
    expect(await call(fork.url, 'eth_blockNumber')).toBe(forkBlock)
  })

  test('reads at and below the fork block equal the upstream’s', async () => {
    const theirs = await readsAt(anvil.url, forkBlock, upstreamed)
    expect(theirs.getLogs).toHaveLength(2) // the mint and the transfer
    expect(await readsAt(fork.url, forkBlock, upstreamed)).toEqual(theirs)
    const below = `0x${(BigInt(forkBlock) - 1n).toString(16)}` as Hex
    expect(await readsAt(fork.url, below, upstreamed)).toEqual(await readsAt(anvil.url, below, upstreamed))
  })

  test('funds the dev accounts on top of the forked state', async () => {
    await fork.chain.buildNow()
    expect(BigInt(await call(fork.flashblocksUrl, 'eth_getBalance', [CAROL, 'pending']))).toBe(FUNDED)
    expect(await call(fork.url, 'eth_getBalance', [CAROL, forkBlock])).toBe(
      await call(anvil.url, 'eth_getBalance', [CAROL, forkBlock]),
    )
  })

  test('a token transfer preconfirms in a flashblock on the fork and leaves the upstream unchanged', async () => {
    const { token } = upstreamed
    const before = await call(anvil.url, 'eth_call', [{ to: token, data: balanceOfBob() }, 'latest'])
    const raw = await signTokenTransfer(fork.url, token, 7n)
    const hash = await call(fork.url, 'eth_sendRawTransaction', [raw])
    await fork.chain.buildNow()
    const receipt = await call(fork.flashblocksUrl, 'eth_getTransactionReceipt', [hash])
    expect(receipt.status).toBe('0x1')
    expect(BigInt(receipt.blockNumber)).toBe(BigInt(forkBlock) + 1n)
    expect(await call(fork.url, 'eth_getTransactionReceipt', [hash])).toBeNull()
    expect(BigInt(await call(fork.flashblocksUrl, 'eth_call', [{ to: token, data: balanceOfBob() }, 'pending']))).toBe(
      BigInt(before) + 7n,
    )
    const sealed = await fork.chain.sealNow()
    const block = await call(fork.url, 'eth_getBlockByNumber', ['latest', false])
    expect(block.hash).toBe(`0x${Buffer.from(sealed.hash).toString('hex')}`)
    const parent = await call(anvil.url, 'eth_getBlockByNumber', [forkBlock, false])
    expect(block.parentHash).toBe(parent.hash)
    expect((await call(fork.url, 'eth_getTransactionReceipt', [hash])).status).toBe('0x1')
    expect(await call(anvil.url, 'eth_call', [{ to: token, data: balanceOfBob() }, 'latest'])).toBe(before)
    expect(await call(anvil.url, 'eth_getTransactionByHash', [hash])).toBeNull()
    expect(await call(anvil.url, 'eth_blockNumber')).toBe(forkBlock)
  })
})
