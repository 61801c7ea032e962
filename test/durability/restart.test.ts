/**
 * --data-dir across a clean restart: a chain with blocks, a contract and its logs comes back with the same
 * hashes, state, receipts and logs, and keeps growing from where it stopped.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createPublicClient, createWalletClient, http, parseEther } from 'viem'
import { afterAll, expect, test } from 'vitest'
import { startService } from '../../src/service.js'
import { devAccount, BOB } from '../support/dev-keys.js'
import { testToken, TRANSFER_TOPIC } from '../support/fixtures.js'
import { viemChain } from '../support/harness.js'

const dir = mkdtempSync(join(tmpdir(), 'preconf-durable-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const options = { port: 0, quiet: true, rateLimit: 0, dataDir: dir, blockTimeMs: 200, flashblockIntervalMs: 50 }

test('a restarted chain answers the same blocks, receipts, logs and state, then keeps sealing on top', async () => {
  const first = await startService(options)
  const wallet = createWalletClient({ account: devAccount, chain: viemChain, transport: http(first.url) })
  const client = createPublicClient({ chain: viemChain, transport: http(first.url) })
  const deploy = await wallet.deployContract({ abi: testToken.abi, bytecode: testToken.bytecode, args: [1_000_000n] })
  const deployed = await client.waitForTransactionReceipt({ hash: deploy })
  const token = deployed.contractAddress!
  const transfer = await wallet.writeContract({
    address: token,
    abi: testToken.abi,
    functionName: 'transfer',
    args: [BOB, 1234n],
  })
  const moved = await client.waitForTransactionReceipt({ hash: transfer })
  const payment = await wallet.sendTransaction({ to: BOB, value: parseEther('1.5') })
  const paid = await client.waitForTransactionReceipt({ hash: payment })
  // viem keeps a block number for its polling interval (4 s): on a busy machine the one its waits read came from
  // before the payment's block, and the state at that head lacked the payment
  const head = await client.getBlockNumber({ cacheTime: 0 })
  expect(head).toBeGreaterThanOrEqual(paid.blockNumber)
  const blocks = await Promise.all(
    Array.from({ length: Number(head) + 1 }, (_, n) => client.getBlock({ blockNumber: BigInt(n) })),
  )
  const logs = await client.getLogs({ address: token, fromBlock: 0n, toBlock: head })
  const balance = await client.getBalance({ address: BOB, blockNumber: head })
  const code = await client.getCode({ address: token })
  const oldBalance = await client.getBalance({ address: BOB, blockNumber: deployed.blockNumber })
  const tokenBalance = await client.readContract({
    address: token,
    abi: testToken.abi,
    functionName: 'balanceOf',
    args: [BOB],
  })
  await first.close()

  const second = await startService(options)
  try {
    const again = createPublicClient({ chain: viemChain, transport: http(second.url) })
    expect(await again.getBlockNumber()).toBeGreaterThanOrEqual(head)
    for (const block of blocks) expect(await again.getBlock({ blockNumber: block.number })).toEqual(block)
    expect(await again.getTransactionReceipt({ hash: transfer })).toEqual(moved)
    expect(await again.getTransactionReceipt({ hash: deploy })).toEqual(deployed)
    expect(await again.getLogs({ address: token, fromBlock: 0n, toBlock: head })).toEqual(logs)
    expect(logs.some((l) => l.topics[0] === TRANSFER_TOPIC)).toBe(true)
    expect(await again.getBalance({ address: BOB, blockNumber: head })).toBe(balance)
    expect(await again.getCode({ address: token })).toBe(code)
    expect(
      await again.readContract({ address: token, abi: testToken.abi, functionName: 'balanceOf', args: [BOB] }),
    ).toBe(tokenBalance)
    // state of an old block is still reachable
    expect(await again.getBalance({ address: BOB, blockNumber: deployed.blockNumber })).toBe(oldBalance)
    expect(oldBalance).toBe(balance - parseEther('1.5'))
    const next = createWalletClient({ account: devAccount, chain: viemChain, transport: http(second.url) })
    const later = await next.sendTransaction({ to: BOB, value: 1n })
    const receipt = await again.waitForTransactionReceipt({ hash: later })
    expect(receipt.status).toBe('success')
    expect(receipt.blockNumber).toBeGreaterThan(head)
  } finally {
    await second.close()
  }
})
