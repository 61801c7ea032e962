import { JsonRpcProvider, Network, Wallet } from 'ethers'
import { type Hex, createPublicClient, createWalletClient, http, toHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startService, type RunningService } from '../../src/service.js'
import { BOB, CAROL, DEV_KEY_0, DEV_KEY_1 } from '../support/dev-keys.js'
import { testToken } from '../support/fixtures.js'
import { type Harness, startHarness, viemChain } from '../support/harness.js'

/**
 * Issue 4's proof from the client side: a transaction sent to /flashblocks has a receipt, balances and a
 * pending block as soon as its flashblock is published, while the general endpoint still sits one block
 * below; once sealed, the same transaction answers with its canonical block hash.
 */
describe('a transaction sent to /flashblocks before its block is sealed', () => {
  let h: Harness
  let token: Hex

  beforeAll(async () => {
    h = await startHarness()
    token = (await h.deployToken(1000n)).address
  })
  afterAll(() => h?.close())

  test("reaches viem's waitForTransactionReceipt as a receipt of the pending block, then of the canonical one", async () => {
    const latest = await h.general.getBlockNumber({ cacheTime: 0 })
    const balanceOf = (blockTag: 'latest' | 'pending') =>
      h.flash.readContract({ address: token, abi: testToken.abi, functionName: 'balanceOf', args: [CAROL], blockTag })
    // nonce, fees and gas from /flashblocks: the pending nonce counts the pool
    const hash = await h.flashWallet.writeContract({
      address: token,
      abi: testToken.abi,
      functionName: 'transfer',
      args: [CAROL, 30n],
    })
    await h.chain.buildNow()

    // The flashblock is built before the wait starts: viem (2.57) looks for the receipt once, then again only
    // when eth_blockNumber moves, and on /flashblocks eth_blockNumber is the canonical height, so a wait
    // begun before the flashblock sees the receipt only at sealing (see the report on issue 4).
    const receipt = await h.flash.waitForTransactionReceipt({ hash, pollingInterval: 10, confirmations: 0 })
    const pending = await h.flash.getBlock({ blockTag: 'pending' })
    expect(receipt.status).toBe('success')
    expect(receipt.blockNumber).toBe(latest + 1n)
    expect(receipt.blockHash).toBe(pending.hash)
    expect(await h.general.getBlockNumber({ cacheTime: 0 })).toBe(latest)
    expect(await balanceOf('pending')).toBe(30n)
    expect(await balanceOf('latest')).toBe(0n)

    const sealed = await h.chain.sealNow()
    for (const client of [h.flash, h.general]) {
      const canonical = await client.getTransactionReceipt({ hash })
      expect(canonical.blockHash).toBe(toHex(sealed.hash))
      expect(canonical.blockNumber).toBe(latest + 1n)
    }
    expect(
      await h.general.readContract({ address: token, abi: testToken.abi, functionName: 'balanceOf', args: [CAROL] }),
    ).toBe(30n)
  })

  test("reaches ethers' tx.wait(0) as a receipt of the pending block", async () => {
    const provider = new JsonRpcProvider(h.service.flashblocksUrl, Network.from(196), {
      staticNetwork: true,
      cacheTimeout: -1,
    })
    const wallet = new Wallet(DEV_KEY_1, provider)
    const latest = await provider.getBlockNumber()
    const tx = await wallet.sendTransaction({ to: BOB, value: 12345n })
    await h.chain.buildNow()

    const receipt = await tx.wait(0)
    const pending = await h.flash.getBlock({ blockTag: 'pending' })
    expect(receipt!.status).toBe(1)
    expect(BigInt(receipt!.blockNumber)).toBe(BigInt(latest) + 1n)
    expect(receipt!.blockHash).toBe(pending.hash)
    expect(await h.general.getBlockNumber({ cacheTime: 0 })).toBe(BigInt(latest))
    const sealed = await h.chain.sealNow()
    expect((await provider.getTransactionReceipt(tx.hash))!.blockHash).toBe(toHex(sealed.hash))
    provider.destroy()
  })

  test('estimates and calls on the pending state under `pending`', async () => {
    const hash = await h.flashWallet.writeContract({
      address: token,
      abi: testToken.abi,
      functionName: 'transfer',
      args: [BOB, 900n],
    })
    await h.chain.buildNow()
    expect((await h.flash.getTransactionReceipt({ hash })).status).toBe('success')
    // alice's remaining 40 cannot cover 100 on the pending state, but could on the canonical one
    const attempt = {
      account: h.alice.address,
      address: token,
      abi: testToken.abi,
      functionName: 'transfer',
      args: [BOB, 100n],
    } as const
    await expect(h.flash.simulateContract({ ...attempt, blockTag: 'pending' })).rejects.toThrow(/insufficient balance/)
    await expect(h.flash.simulateContract({ ...attempt, blockTag: 'latest' })).resolves.toBeDefined()
    await expect(h.flash.estimateContractGas({ ...attempt, blockTag: 'pending' } as never)).rejects.toThrow(
      /insufficient balance/,
    )
    // on the general endpoint `pending` is the latest canonical block
    await expect(h.general.simulateContract({ ...attempt, blockTag: 'pending' })).resolves.toBeDefined()
    await h.chain.sealNow()
  })
})

describe('eth_sendRawTransactionSync', () => {
  let h: Harness
  const alice = privateKeyToAccount(DEV_KEY_0)
  const sign = async (nonce: number) =>
    alice.signTransaction({
      chainId: 196,
      to: BOB,
      value: 1n,
      gas: 21_000n,
      nonce,
      maxFeePerGas: 10n ** 10n,
      maxPriorityFeePerGas: 10n ** 9n,
    })

  beforeAll(async () => {
    h = await startHarness()
  })
  afterAll(() => h?.close())

  test('answers on /flashblocks with the receipt as soon as the transaction is preconfirmed', async () => {
    const latest = h.chain.store.height
    const reply = h.rpc('flashblocks', 'eth_sendRawTransactionSync', [await sign(0), 6000])
    await until(() => h.chain.pool.size > 0)
    await h.chain.buildNow()
    const { result } = await reply
    const pending = await h.flash.getBlock({ blockTag: 'pending' })
    expect(result).toMatchObject({
      blockNumber: toHex(latest + 1n),
      blockHash: pending.hash,
      status: '0x1',
      transactionIndex: '0x1', // after the L1-info deposit
    })
    expect(h.chain.store.height).toBe(latest)
    await h.chain.sealNow()
  })

  test('answers on / only once the block holding the transaction is sealed', async () => {
    let settled = false
    const reply = h.rpc('general', 'eth_sendRawTransactionSync', [await sign(1)]).finally(() => (settled = true))
    await until(() => h.chain.pool.size > 0)
    await h.chain.buildNow()
    await h.rpc('general', 'eth_blockNumber', []) // one more round trip: a receipt would have been sent by now
    expect(settled).toBe(false)
    const sealed = await h.chain.sealNow()
    const { result } = await reply
    expect(result).toMatchObject({ blockHash: toHex(sealed.hash), blockNumber: toHex(sealed.number), status: '0x1' })
  })

  test('times out with code 4 and the transaction hash, leaving the transaction in the pool', async () => {
    const raw = await sign(2) // the next nonce, but nothing builds a flashblock here
    const { error } = await h.rpc('flashblocks', 'eth_sendRawTransactionSync', [raw, 50])
    expect(error?.code).toBe(4)
    expect(error?.message).toBe("the transaction was added to the mempool but wasn't processed within 50 ms")
    expect((await h.rpc('general', 'eth_getTransactionByHash', [error?.data])).result).toMatchObject({
      blockNumber: null,
      nonce: '0x2',
    })
  })
})

describe('eth_sendRawTransactionSync with the sequencer running', () => {
  let service: RunningService

  beforeAll(async () => {
    // flashblocks every 200 ms, blocks never sealed during the test
    service = await startService({ port: 0, quiet: true, rateLimit: 0, blockTimeMs: 3_600_000 })
  })
  afterAll(() => service?.close())

  test('returns viem a receipt of the pending block while / still reports the previous height', async () => {
    const wallet = createWalletClient({
      account: privateKeyToAccount(DEV_KEY_0),
      chain: viemChain,
      transport: http(service.flashblocksUrl),
    })
    const general = createPublicClient({ chain: viemChain, transport: http(service.url) })
    const latest = await general.getBlockNumber({ cacheTime: 0 })
    const serializedTransaction = await wallet.signTransaction(
      await wallet.prepareTransactionRequest({ to: BOB, value: 7n }),
    )
    const receipt = await wallet.sendRawTransactionSync({ serializedTransaction })
    expect(receipt.status).toBe('success')
    expect(receipt.blockNumber).toBe(latest + 1n)
    expect(await general.getBlockNumber({ cacheTime: 0 })).toBe(latest)
  })
})

/** Yields to the event loop until the condition holds (the pool is filled by a request in flight). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve))
}
