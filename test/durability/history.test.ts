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
import { MEMORY_HISTORY_BLOCKS } from '../../src/limits.js'

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

test('in memory, --history prunes the same way, and keeps the state of a snapshot and of an edited block', async () => {
  // blocks only when asked, each pass waited for: a pass starts at every fourth block (4, 8, 12...)
  const service = await startFrozenService({ history: 4 })
  const pruner = service.chain.options.pruner!
  const head = async () => BigInt((await rpc(service.url, 'eth_blockNumber')).result as string)
  const mine = async (blocks: number) => {
    for (let i = 0; i < blocks; i++) {
      await rpc(service.url, 'evm_mine')
      await pruner.idle()
    }
  }
  try {
    const wallet = createWalletClient({ account: devAccount, chain: viemChain, transport: http(service.url) })
    const client = createPublicClient({ chain: viemChain, transport: http(service.url) })
    const snapshot = await rpc(service.url, 'evm_snapshot')
    const atSnapshot = await client.getBalance({ address: CAROL })
    const sent = await wallet.sendTransaction({ to: CAROL, value: parseEther('3') })
    await mine(1)
    const mined = (await client.waitForTransactionReceipt({ hash: sent })).blockNumber
    await mine(8)
    while ((await head()) % 4n !== 1n) await mine(1)
    // an edit under the head: its block's reads go to the edited root, which the pass three blocks on keeps
    await rpc(service.url, 'anvil_setBalance', [CAROL, '0x2a'])
    const edited = await head()
    await mine(3)
    expect(await client.getBalance({ address: CAROL, blockNumber: edited })).toBe(42n)

    const pruned = await rpc(service.url, 'eth_getBalance', [CAROL, hex(mined)])
    expect(pruned.error?.message).toMatch(/^missing trie node 0x[0-9a-f]{64} .* older than --history 4 blocks$/)
    // the block before is the snapshot's, and every pass kept the snapshot's state: evm_revert puts it back
    expect((await rpc(service.url, 'evm_revert', [snapshot.result])).result).toBe(true)
    expect(await head()).toBeLessThan(mined)
    expect(await client.getBalance({ address: CAROL })).toBe(atSnapshot)
    const paid = await wallet.sendTransaction({ to: CAROL, value: 1n })
    await mine(1)
    expect((await client.waitForTransactionReceipt({ hash: paid })).status).toBe('success')
    expect(await client.getBalance({ address: CAROL })).toBe(atSnapshot + 1n)
  } finally {
    await service.close()
  }
}, 120_000)

test('in memory the state of the last 128 blocks is kept by default, all with --history all', async () => {
  for (const history of [undefined, 'all' as const]) {
    const service = await startFrozenService({ history })
    try {
      const client = createPublicClient({ chain: viemChain, transport: http(service.url) })
      const genesis = await client.getBalance({ address: CAROL, blockNumber: 0n })
      // a pass every 128 blocks: the second one (at 256 or just after) is past block 1
      await rpc(service.url, 'anvil_mine', [hex(BigInt(2 * MEMORY_HISTORY_BLOCKS + 4))])
      await service.chain.options.pruner?.idle()
      await rpc(service.url, 'evm_mine')
      await service.chain.options.pruner?.idle()
      const old = await rpc(service.url, 'eth_getBalance', [CAROL, '0x1'])
      if (history === 'all') expect(old.result).toBe(hex(genesis))
      else expect(old.error?.message).toMatch(/older than --history 128 blocks$/)
      const recent = (await client.getBlockNumber()) - BigInt(MEMORY_HISTORY_BLOCKS) + 8n
      expect(await client.getBalance({ address: CAROL, blockNumber: recent })).toBe(genesis)
      // eth_capabilities says so: state from the 128th block back, blocks from genesis
      const capabilities = (await rpc(service.url, 'eth_capabilities')).result as Record<
        string,
        { oldestBlock: string }
      >
      const oldest = history === 'all' ? 0n : (await client.getBlockNumber()) - BigInt(MEMORY_HISTORY_BLOCKS) + 1n
      expect([capabilities.state!.oldestBlock, capabilities.blocks!.oldestBlock]).toEqual([hex(oldest), '0x0'])
      // anvil_reset goes back to the genesis state, which every pass keeps
      await rpc(service.url, 'anvil_reset')
      expect(await client.getBalance({ address: CAROL })).toBe(genesis)
    } finally {
      await service.close()
    }
  }
}, 120_000)
