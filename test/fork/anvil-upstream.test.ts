/**
 * Fork mode over anvil (a node no one here wrote): the fork answers the upstream's chain id, and its
 * blocks, transactions, state and calls at the fork block as anvil does; dev accounts are funded on top;
 * a token transfer on the fork preconfirms in a flashblock before its block seals and never reaches anvil.
 */
import { encodeDeployData, encodeFunctionData, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type RunningService, startService } from '../../src/service.js'
import { type RunningAnvil, startAnvil } from '../support/anvil.js'
import { CAROL, DEV_KEY_1 } from '../support/dev-keys.js'
import { testToken } from '../support/fixtures.js'
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

  test('a slot written to zero on the fork reads zero, and a contract deployed on the fork has its own storage', async () => {
    const { token } = upstreamed
    const bob = privateKeyToAccount(DEV_KEY_1)
    const chainId = 31337
    const held = BigInt(await call(fork.flashblocksUrl, 'eth_call', [{ to: token, data: balanceOfBob() }, 'pending']))
    expect(held).toBeGreaterThan(0n)
    const nonce = Number(await call(fork.url, 'eth_getTransactionCount', [bob.address, 'pending']))
    const fees = { maxFeePerGas: 100_000_000_000n, maxPriorityFeePerGas: 1n }
    const all = encodeFunctionData({ abi: testToken.abi, functionName: 'transfer', args: [CAROL, held] })
    const deploy = encodeDeployData({ abi: testToken.abi, bytecode: testToken.bytecode, args: [42n] })
    const sent = await Promise.all([
      bob.signTransaction({ chainId, nonce, to: token, data: all, gas: 100_000n, ...fees }),
      bob.signTransaction({ chainId, nonce: nonce + 1, data: deploy, gas: 3_000_000n, ...fees }),
    ])
    const [, created] = await Promise.all(sent.map((raw) => call(fork.url, 'eth_sendRawTransaction', [raw])))
    await fork.chain.mine()
    // BOB's slot is zero here, though the upstream still holds his tokens
    expect(BigInt(await call(fork.url, 'eth_call', [{ to: token, data: balanceOfBob() }, 'latest']))).toBe(0n)
    expect(BigInt(await call(anvil.url, 'eth_call', [{ to: token, data: balanceOfBob() }, 'latest']))).toBeGreaterThan(
      0n,
    )
    const local = (await call(fork.url, 'eth_getTransactionReceipt', [created])).contractAddress
    const ofBob = encodeFunctionData({ abi: testToken.abi, functionName: 'balanceOf', args: [bob.address] })
    expect(BigInt(await call(fork.url, 'eth_call', [{ to: local, data: ofBob }, 'latest']))).toBe(42n)
    expect(await call(anvil.url, 'eth_getCode', [local, 'latest'])).toBe('0x')
  })
})
