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
import type { Chain } from '../../src/chain/chain.js'
import type { RunningService } from '../../src/service.js'
import { CAROL, devAccount } from '../support/dev-keys.js'
import { startFrozenService, viemChain } from '../support/harness.js'
import { rpc } from '../support/rpc.js'

const dir = mkdtempSync(join(tmpdir(), 'preconf-history-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
// blocks come from chain.mine() only (the harness's timers are an hour): the test decides when the chain moves
// past --history, not a block timer racing its reads on a busy machine
const options = { dataDir: dir, history: 4 }
const hex = (n: bigint) => `0x${n.toString(16)}`

/** Seals `n` blocks, the pool's transactions in the first. */
async function mineBlocks(service: RunningService, n: number): Promise<void> {
  for (let i = 0; i < n; i++) await (service.chain as Chain).mine()
}

/** Sends `value` to CAROL and seals it in a block of its own; returns that block's number. */
async function payCarol(service: RunningService, value: bigint): Promise<bigint> {
  const wallet = createWalletClient({ account: devAccount, chain: viemChain, transport: http(service.url) })
  const client = createPublicClient({ chain: viemChain, transport: http(service.url) })
  const sent = await wallet.sendTransaction({ to: CAROL, value })
  await mineBlocks(service, 1)
  const receipt = await client.getTransactionReceipt({ hash: sent })
  expect(receipt.status).toBe('success')
  return receipt.blockNumber
}

test('a state read older than --history blocks gets missing trie node; recent state, blocks and a restart do not', async () => {
  const first = await startFrozenService(options)
  const client = createPublicClient({ chain: viemChain, transport: http(first.url) })
  await mineBlocks(first, 2)
  const mined = await payCarol(first, parseEther('3'))
  const before = mined - 1n
  expect(await client.getBalance({ address: CAROL, blockNumber: before })).toBeGreaterThan(0n)
  await mineBlocks(first, 12)
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
  expect(head).toBe(mined + 12n)
  const balance = await client.getBalance({ address: CAROL, blockNumber: head - 3n })
  expect(balance).toBe(await client.getBalance({ address: CAROL }))
  await first.close()

  const again = await startFrozenService(options)
  try {
    const reopened = createPublicClient({ chain: viemChain, transport: http(again.url) })
    expect(await reopened.getBalance({ address: CAROL, blockNumber: head })).toBe(balance)
    await payCarol(again, 1n)
    expect(await reopened.getBalance({ address: CAROL })).toBe(balance + 1n)
  } finally {
    await again.close()
  }
}, 120_000)

test('in memory, --history prunes the same way, and evm_revert to a pruned snapshot is refused', async () => {
  const service = await startFrozenService({ history: 4 })
  try {
    const client = createPublicClient({ chain: viemChain, transport: http(service.url) })
    await mineBlocks(service, 2)
    const snapshot = await rpc(service.url, 'evm_snapshot')
    const before = (await payCarol(service, parseEther('3'))) - 1n
    await mineBlocks(service, 12)
    await service.chain.options.pruner!.idle()

    const pruned = await rpc(service.url, 'eth_getBalance', [CAROL, hex(before)])
    expect(pruned.error?.message).toMatch(/^missing trie node 0x[0-9a-f]{64} .* older than --history 4 blocks$/)
    const head = await client.getBlockNumber()
    const revert = await rpc(service.url, 'evm_revert', [snapshot.result])
    expect(revert.error?.message).toMatch(/^missing trie node/)
    // nothing was undone: the chain goes on from where it was, on whole state
    expect(await client.getBlockNumber()).toBe(head)
    const balance = await client.getBalance({ address: CAROL })
    await payCarol(service, 1n)
    expect(await client.getBalance({ address: CAROL })).toBe(balance + 1n)
  } finally {
    await service.close()
  }
}, 120_000)
