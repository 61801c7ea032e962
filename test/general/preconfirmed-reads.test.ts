import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type Hex, toHex } from 'viem'
import { BOB, CAROL } from '../support/dev-keys.js'
import { testToken, TRANSFER_TOPIC } from '../support/fixtures.js'
import { type Harness, startHarness } from '../support/harness.js'

/**
 * One preconfirmed token transfer, read from both endpoints between its flashblock and its block's
 * sealing: /flashblocks shows it under `pending` and by hash; / does not until the block is sealed.
 */
describe('a preconfirmed transfer before and after its block is sealed', () => {
  let h: Harness
  let token: Hex
  let latest: bigint
  let hash: Hex
  let nonceBefore: number

  const balanceOf = (client: Harness['general'], account: Hex, blockTag: 'latest' | 'pending') =>
    client.readContract({ address: token, abi: testToken.abi, functionName: 'balanceOf', args: [account], blockTag })

  beforeAll(async () => {
    h = await startHarness()
    token = (await h.deployToken(1000n)).address
    latest = await h.general.getBlockNumber({ cacheTime: 0 })
    nonceBefore = await h.general.getTransactionCount({ address: h.alice.address, blockTag: 'latest' })
    hash = await h.transferToken(token, BOB, 40n, h.flashWallet)
    await h.chain.buildNow()
  })
  afterAll(() => h?.close())

  test('has a receipt on /flashblocks carrying the pending number and the pending block hash', async () => {
    const pending = await h.flash.getBlock({ blockTag: 'pending' })
    const receipt = await h.flash.getTransactionReceipt({ hash })
    expect(receipt.blockNumber).toBe(latest + 1n)
    expect(receipt.blockHash).toBe(pending.hash)
    expect(receipt.logs[0]!.blockHash).toBe(pending.hash)
    expect(receipt.status).toBe('success')
  })

  test('shows the new balances and nonce under `pending` on /flashblocks, the old ones under `latest`', async () => {
    expect(await balanceOf(h.flash, BOB, 'pending')).toBe(40n)
    expect(await balanceOf(h.flash, BOB, 'latest')).toBe(0n)
    expect(await h.flash.getTransactionCount({ address: h.alice.address, blockTag: 'pending' })).toBe(nonceBefore + 1)
    expect(await h.flash.getTransactionCount({ address: h.alice.address, blockTag: 'latest' })).toBe(nonceBefore)
    const gasBefore = await h.flash.getBalance({ address: h.alice.address, blockTag: 'latest' })
    expect(await h.flash.getBalance({ address: h.alice.address, blockTag: 'pending' })).toBeLessThan(gasBefore)
  })

  test('puts the transaction in the pending block and answers the pending height only when asked for it', async () => {
    const pending = await h.flash.getBlock({ blockTag: 'pending' })
    expect(pending.number).toBe(latest + 1n)
    expect(pending.transactions).toHaveLength(2) // after the L1-info deposit
    expect(pending.transactions[1]).toBe(hash)
    expect((await h.rpc('flashblocks', 'eth_blockNumber', ['pending'])).result).toBe(toHex(latest + 1n))
    expect((await h.rpc('flashblocks', 'eth_blockNumber', [])).result).toBe(toHex(latest))
    expect((await h.rpc('flashblocks', 'eth_blockNumber', ['latest'])).result).toBe(toHex(latest))
    expect(await h.flash.getBlockTransactionCount({ blockTag: 'pending' })).toBe(2)
    expect((await h.flash.getBlock({ blockHash: pending.hash! })).number).toBe(latest + 1n)
    expect((await h.flash.getTransaction({ blockTag: 'pending', index: 1 })).hash).toBe(hash)
    const tx = await h.flash.getTransaction({ hash })
    expect(tx.blockHash).toBe(pending.hash)
    const receipts = (await h.rpc('flashblocks', 'eth_getBlockReceipts', ['pending'])).result as {
      transactionHash: Hex
    }[]
    expect(receipts.map((r) => r.transactionHash).slice(1)).toEqual([hash])
  })

  test("includes the pending block's logs in eth_getLogs ranges that end at `pending` on /flashblocks only", async () => {
    const filter = { address: token, topics: [TRANSFER_TOPIC], fromBlock: toHex(latest + 1n) }
    const toPending = (await h.rpc('flashblocks', 'eth_getLogs', [{ ...filter, toBlock: 'pending' }])).result as {
      transactionHash: Hex
    }[]
    expect(toPending.map((l) => l.transactionHash)).toEqual([hash])
    const sinceDeploy = { ...filter, fromBlock: toHex(latest) }
    const toLatest = (await h.rpc('flashblocks', 'eth_getLogs', [{ ...sinceDeploy, toBlock: 'latest' }]))
      .result as unknown[]
    expect(toLatest).toHaveLength(1) // the mint at deployment only
    const onGeneral = (await h.rpc('general', 'eth_getLogs', [{ ...sinceDeploy, toBlock: 'pending' }]))
      .result as unknown[]
    expect(onGeneral).toHaveLength(1)
  })

  test('is not visible on / until sealed: no receipt, old balances and height under `pending`', async () => {
    expect((await h.rpc('general', 'eth_getTransactionReceipt', [hash])).result).toBeNull()
    expect(await balanceOf(h.general, BOB, 'pending')).toBe(0n)
    expect(await h.general.getTransactionCount({ address: h.alice.address, blockTag: 'latest' })).toBe(nonceBefore)
    expect((await h.general.getBlock({ blockTag: 'pending' })).number).toBe(latest)
    expect((await h.rpc('general', 'eth_blockNumber', ['pending'])).result).toBe(toHex(latest))
    const pendingHash = (await h.flash.getBlock({ blockTag: 'pending' })).hash
    expect((await h.rpc('general', 'eth_getBlockByHash', [pendingHash, false])).result).toBeNull()
  })

  test('after sealing, answers the same transaction with its canonical block on both endpoints', async () => {
    const sealed = await h.chain.sealNow()
    for (const client of [h.general, h.flash]) {
      const receipt = await client.getTransactionReceipt({ hash })
      expect(receipt.blockHash).toBe(toHex(sealed.hash))
      expect(receipt.blockNumber).toBe(latest + 1n)
      expect(await balanceOf(client, BOB, 'latest')).toBe(40n)
    }
    // with no flashblock of the next block yet, `pending` on /flashblocks answers as latest
    expect((await h.flash.getBlock({ blockTag: 'pending' })).hash).toBe(toHex(sealed.hash))
    expect(await h.flash.getTransactionCount({ address: h.alice.address, blockTag: 'pending' })).toBe(nonceBefore + 1)
  })

  test("counts the pool's consecutive nonces in the pending nonce on both endpoints", async () => {
    const { nonce } = h.fees()
    await h.wallet.sendTransaction({
      to: CAROL,
      value: 1n,
      gas: 21_000n,
      nonce,
      maxFeePerGas: 10n ** 10n,
      maxPriorityFeePerGas: 10n ** 9n,
    })
    expect(await h.flash.getTransactionCount({ address: h.alice.address, blockTag: 'pending' })).toBe(nonce + 1)
    expect(await h.general.getTransactionCount({ address: h.alice.address, blockTag: 'pending' })).toBe(nonce + 1)
    expect(await h.general.getTransactionCount({ address: h.alice.address, blockTag: 'latest' })).toBe(nonce)
  })
})
