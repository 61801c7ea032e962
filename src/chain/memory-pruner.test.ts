/**
 * --history in memory counts trie nodes (memory-pruner.ts): what the node store holds is the state of the kept
 * blocks and the last few blocks' writes, nothing older, and a block's pruning walks its changes, not the state.
 * The reachable nodes are found here by @ethereumjs's own trie walk, not by the pruner's.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { LeafMPTNode } from '@ethereumjs/mpt'
import type { MapDB } from '@ethereumjs/util'
import { KECCAK256_RLP, createAccountFromRLP, equalsBytes, randomBytes } from '@ethereumjs/util'
import { afterEach, expect, test } from 'vitest'
import { signTx } from '../../test/support/sign-tx.js'
import { until } from '../../test/support/wait-for.js'
import { defaultConfig } from '../config.js'
import { keccak256 } from '../evm/crypto.js'
import { liveTrie, mapUnder } from '../evm/patches/fields.js'
import { nodeStore } from '../evm/state-views.js'
import { PRUNE_UNSEALED_KEPT_BLOCKS } from '../limits.js'
import type { Chain } from './chain.js'
import { createChain } from './create-chain.js'
import type { MemoryNodes } from './memory-nodes.js'

let chain: Chain | undefined
afterEach(async () => {
  await chain?.stop()
  chain = undefined
})

/** The chain's in-memory node store (the map under the trie's MapDB), its writes noted by the height they came at. */
function watchNodes(c: Chain) {
  const nodes = mapUnder(nodeStore(c.vm) as MapDB<string, Uint8Array>) as MemoryNodes
  const writtenAt = new Map<string, bigint>()
  const set = nodes.set.bind(nodes)
  nodes.set = (key, value) => {
    writtenAt.set(`${key}`, c.store.height)
    return set(key, value)
  }
  // a read: a node's bytes, or where they are (the pruner's counts are kept beside them)
  let reads = 0
  const get = nodes.get.bind(nodes)
  nodes.get = (key) => {
    reads++
    return get(key)
  }
  const place = nodes.place.bind(nodes)
  nodes.place = (key) => {
    reads++
    return place(key)
  }
  return { nodes, writtenAt, reads: () => reads }
}

/** The keys of every stored node of the states at `roots` (account tries and their storage tries). */
async function reachable(c: Chain, roots: Uint8Array[]): Promise<Set<string>> {
  const found = new Set<string>()
  const walk = async (root: Uint8Array, accounts: boolean) => {
    if (equalsBytes(root, KECCAK256_RLP)) return
    const trie = liveTrie(c.vm.stateManager).shallowCopy(false)
    trie.root(root)
    await trie.walkAllNodes(async (node) => {
      const raw = node.serialize()
      if (raw.length >= 32) found.add(Buffer.from(keccak256(raw)).toString('hex'))
      if (accounts && node instanceof LeafMPTNode) await walk(createAccountFromRLP(node.value()!).storageRoot, false)
    })
  }
  for (const root of roots) await walk(root, true)
  return found
}

/** Seals a block with `count` transfers to new addresses from dev account 0. */
async function transfers(c: Chain, count: number, nonce: { next: number }) {
  for (let i = 0; i < count; i++)
    await c.sendRawTransaction(await signTx(c, 0, { nonce: nonce.next++, to: randomBytes(20), value: 1n }))
  const block = await c.sealNow()
  expect(block.txs.length).toBe(count + 1) // and the L1-info deposit
}

test('in memory the node store holds the kept states and what the last few blocks wrote, nothing else', async () => {
  // --history 64: no block leaves the window here; what goes is what no kept state holds
  chain = await createChain(defaultConfig({ quiet: true, blockTimeMs: 3_600_000, history: 64 }))
  const c = chain
  const { nodes, writtenAt } = watchNodes(c)
  const nonce = { next: 0 }
  for (let block = 0; block < 6; block++) await transfers(c, 8, nonce)
  for (let block = 0; block <= PRUNE_UNSEALED_KEPT_BLOCKS; block++) await c.sealNow()
  const kept = await reachable(
    c,
    [...c.store.range(0n, c.store.height)].map((b) => b.header.stateRoot),
  )
  const recent = c.store.height - BigInt(PRUNE_UNSEALED_KEPT_BLOCKS)
  const stray = [...nodes.keys()].filter(
    (key) => key.length === 64 && !kept.has(key) && (writtenAt.get(key) ?? 0n) < recent,
  )
  // each transfer rewrote the path to the root, each flashblock had a state: none of those is left
  expect(stray).toEqual([])
  for (const key of kept) expect(nodes.has(key), key).toBe(true)
})

test('a state leaving --history goes with the blocks that take it out, and no block walks the whole state', async () => {
  // 20 000 accounts from a state file: the state is far larger than what a block changes
  const accounts = Object.fromEntries(
    Array.from({ length: 20_000 }, (_, i) => [`0x${(i + 1).toString(16).padStart(40, '0')}`, { balance: '0x1' }]),
  )
  const file = join(mkdtempSync(join(tmpdir(), 'preconf-pruner-')), 'state.json')
  writeFileSync(file, JSON.stringify({ accounts }))
  chain = await createChain(defaultConfig({ quiet: true, blockTimeMs: 3_600_000, history: 4, loadState: file }))
  rmSync(dirname(file), { recursive: true })
  const c = chain
  const pruner = c.options.pruner!
  const nonce = { next: 0 }
  // the first block takes in the whole state once; the block PRUNE_UNSEALED_KEPT_BLOCKS on lets go of what
  // writing it left (each account's insertion rewrote the path above it)
  for (let block = 0; block <= PRUNE_UNSEALED_KEPT_BLOCKS + 1; block++) await transfers(c, 1, nonce)
  const { nodes, reads } = watchNodes(c)
  // the pruner's reads after each block: in sealed() and in a pass it may start (waited for)
  const sealed = pruner.sealed.bind(pruner)
  const perBlock: number[] = []
  pruner.sealed = (head) => {
    const before = reads()
    sealed(head)
    void pruner.idle().then(() => perBlock.push(reads() - before))
  }
  for (let block = 0; block < 14; block++) {
    await transfers(c, 1, nonce)
    await pruner.idle()
  }
  await until(() => perBlock.length === 14, 'the pruning after each block')
  // a transfer's changes are some dozens of nodes (and their children): the state is over 20 000
  expect(Math.max(...perBlock)).toBeLessThan(nodes.size / 4)
  const head = c.store.height
  for (let n = head - 3n; n <= head; n++) expect(() => c.readerAt(rootOf(c, n)), `block ${n}`).not.toThrow()
  const gone = head - 4n - BigInt(PRUNE_UNSEALED_KEPT_BLOCKS)
  expect(() => c.readerAt(rootOf(c, gone))).toThrow(/missing trie node/)
})

const rootOf = (c: Chain, n: bigint) => c.store.byNumber(n)!.header.stateRoot
