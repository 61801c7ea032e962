/**
 * --history N, with --data-dir or in memory: state older than N blocks is pruned in the background; a state read on
 * a pruned block gets geth's -32000 "missing trie node", recent state and every block stay readable,
 * and the directory restarts on the state it kept.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createPublicClient, createWalletClient, http, parseEther } from 'viem'
import { afterAll, expect, test } from 'vitest'
import { type RunningService, startService } from '../../src/service.js'
import { CAROL, devAccount } from '../support/dev-keys.js'
import { viemChain } from '../support/harness.js'
import { rpc } from '../support/rpc.js'
import { until } from '../support/wait-for.js'

const dir = mkdtempSync(join(tmpdir(), 'preconf-history-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const options = {
  port: 0,
  quiet: true,
  rateLimit: 0,
  dataDir: dir,
  history: 4,
  blockTimeMs: 100,
  flashblockIntervalMs: 25,
}
const hex = (n: bigint) => `0x${n.toString(16)}`

test('a state read older than --history blocks gets missing trie node; recent state, blocks and a restart do not', async () => {
  const first = (await startService(options)) as RunningService
  const wallet = createWalletClient({ account: devAccount, chain: viemChain, transport: http(first.url) })
  const client = createPublicClient({ chain: viemChain, transport: http(first.url) })
  const sent = await wallet.sendTransaction({ to: CAROL, value: parseEther('3') })
  const mined = (await client.waitForTransactionReceipt({ hash: sent })).blockNumber
  const before = mined - 1n
  expect(await client.getBalance({ address: CAROL, blockNumber: before })).toBeGreaterThan(0n)
  await until(async () => (await client.getBlockNumber()) >= mined + 12n, 'twelve more blocks')
  await first.chain.options.pruner!.idle()

  const pruned = await rpc(first.url, 'eth_getBalance', [CAROL, hex(before)])
  expect(pruned.error?.code).toBe(-32000)
  expect(pruned.error?.message).toMatch(
    /^missing trie node 0x[0-9a-f]{64} \(path \) state 0x[0-9a-f]{64} is not available: older than --history 4 blocks$/,
  )
  const call = await rpc(first.url, 'eth_call', [{ to: CAROL }, hex(before)])
  expect(call.error?.message).toMatch(/^missing trie node/)
  // the block itself is history, not state: still there
  const block = (await rpc(first.url, 'eth_getBlockByNumber', [hex(before), false])).result as { number: string }
  expect(BigInt(block.number)).toBe(before)
  const head = await client.getBlockNumber()
  const balance = await client.getBalance({ address: CAROL, blockNumber: head - 3n })
  expect(balance).toBe(await client.getBalance({ address: CAROL }))
  await first.close()

  const again = (await startService(options)) as RunningService
  try {
    const reopened = createPublicClient({ chain: viemChain, transport: http(again.url) })
    expect(await reopened.getBalance({ address: CAROL, blockNumber: head })).toBe(balance)
    const paid = await createWalletClient({
      account: devAccount,
      chain: viemChain,
      transport: http(again.url),
    }).sendTransaction({ to: CAROL, value: 1n })
    expect((await reopened.waitForTransactionReceipt({ hash: paid })).status).toBe('success')
  } finally {
    await again.close()
  }
}, 120_000)

test('in memory, --history prunes the same way, and evm_revert to a pruned snapshot is refused', async () => {
  const { dataDir: _, ...inMemory } = options
  const service = (await startService(inMemory)) as RunningService
  try {
    const wallet = createWalletClient({ account: devAccount, chain: viemChain, transport: http(service.url) })
    const client = createPublicClient({ chain: viemChain, transport: http(service.url) })
    const snapshot = await rpc(service.url, 'evm_snapshot')
    const sent = await wallet.sendTransaction({ to: CAROL, value: parseEther('3') })
    const mined = (await client.waitForTransactionReceipt({ hash: sent })).blockNumber
    const before = mined - 1n
    await until(async () => (await client.getBlockNumber()) >= mined + 12n, 'twelve more blocks')
    await service.chain.options.pruner!.idle()

    const pruned = await rpc(service.url, 'eth_getBalance', [CAROL, hex(before)])
    expect(pruned.error?.message).toMatch(/^missing trie node 0x[0-9a-f]{64} .* older than --history 4 blocks$/)
    const head = await client.getBlockNumber()
    const revert = await rpc(service.url, 'evm_revert', [snapshot.result])
    expect(revert.error?.message).toMatch(/^missing trie node/)
    // nothing was undone: the chain goes on from where it was, on whole state
    expect(await client.getBlockNumber()).toBeGreaterThanOrEqual(head)
    const balance = await client.getBalance({ address: CAROL })
    const paid = await wallet.sendTransaction({ to: CAROL, value: 1n })
    const receipt = await client.waitForTransactionReceipt({ hash: paid })
    expect(receipt.status).toBe('success')
    expect(await client.getBalance({ address: CAROL })).toBe(balance + 1n)
  } finally {
    await service.close()
  }
}, 120_000)
