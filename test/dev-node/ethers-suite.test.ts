/**
 * A Hardhat-style test suite over ethers: each test starts from `evm_snapshot` and ends with `evm_revert`,
 * time is moved with `evm_increaseTime` + `evm_mine`, and transactions are sent through the node's own
 * accounts and waited for as ethers waits (receipt polling). The chain runs as `npm start` runs it
 * (flashblocks every 200 ms, a block a second): what one test did must be gone in the next.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { JsonRpcProvider, type JsonRpcSigner, parseEther } from 'ethers'
import { startService, type RunningService } from '../../src/service.js'
import { BOB, CAROL } from '../support/dev-keys.js'

let service: RunningService
let provider: JsonRpcProvider
let owner: JsonRpcSigner
let snapshot: string
let startBalance: bigint

beforeAll(async () => {
  service = await startService({ port: 0, quiet: true, rateLimit: 0 })
  // no response cache: a read right after evm_revert must reach the node
  provider = new JsonRpcProvider(service.url, 196, { staticNetwork: true, pollingInterval: 50, cacheTimeout: -1 })
  owner = await provider.getSigner(0)
  startBalance = await provider.getBalance(CAROL)
})
afterAll(async () => {
  provider?.destroy()
  await service?.close()
})

describe('a suite that snapshots before each test and reverts after it', () => {
  beforeEach(async () => {
    snapshot = await provider.send('evm_snapshot', [])
  })
  afterEach(async () => {
    expect(await provider.send('evm_revert', [snapshot])).toBe(true)
  })

  test('a transfer lands', async () => {
    const tx = await owner.sendTransaction({ to: CAROL, value: parseEther('1') })
    const receipt = await tx.wait()
    expect(receipt?.status).toBe(1)
    expect(await provider.getBalance(CAROL)).toBe(startBalance + parseEther('1'))
  })

  test('and is gone in the next test, with the nonce it used', async () => {
    expect(await provider.getBalance(CAROL)).toBe(startBalance)
    expect(await provider.getTransactionCount(await owner.getAddress())).toBe(0)
    const tx = await owner.sendTransaction({ to: CAROL, value: 1n })
    expect(tx.nonce).toBe(0)
    await tx.wait()
  })

  test('time moves forward by an hour', async () => {
    const before = (await provider.getBlock('latest'))!.timestamp
    await provider.send('evm_increaseTime', [3600])
    await provider.send('evm_mine', [])
    const after = (await provider.getBlock('latest'))!.timestamp
    // anvil's clock: the block opens at the wall clock plus the offset, so an hour on, less the second the
    // latest block may have been ahead of that clock (a block opened in its parent's second takes parent + 1)
    expect(after - before).toBeGreaterThanOrEqual(3600 - 1)
  })

  test('and the next test starts back in the present', async () => {
    await provider.send('evm_mine', [])
    const now = Math.floor(Date.now() / 1000)
    // the clock continues from the restored head (anvil's rule), not an hour ahead
    expect((await provider.getBlock('latest'))!.timestamp).toBeLessThan(now + 600)
  })

  test('state set by the suite itself is undone too', async () => {
    await provider.send('hardhat_setBalance', [BOB, '0x0'])
    expect(await provider.getBalance(BOB)).toBe(0n)
    await provider.send('evm_setNextBlockTimestamp', [4_000_000_000])
    await provider.send('evm_mine', [])
    expect((await provider.getBlock('latest'))!.timestamp).toBe(4_000_000_000)
  })

  test('and the balance is back', async () => {
    expect(await provider.getBalance(BOB)).toBe(parseEther('10000'))
  })
})
