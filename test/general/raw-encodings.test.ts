import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type Hex, fromRlp, hexToBytes, keccak256 } from 'viem'
import { orderedTrieRoot } from '../../src/evm/ordered-trie.js'
import { BOB } from '../support/dev-keys.js'
import { type Harness, startHarness } from '../support/harness.js'

describe('debug_getRawBlock, debug_getRawHeader, debug_getRawReceipts and debug_getRawTransaction', () => {
  let h: Harness
  let transfer: Hex
  let block: { hash: Hex; number: bigint; receiptsRoot: Hex; transactionsRoot: Hex }

  beforeAll(async () => {
    h = await startHarness()
    await h.deployToken(1000n)
    transfer = await h.wallet.sendTransaction({ to: BOB, value: 1n, gas: 21_000n, ...h.fees() })
    const sealed = await h.mine()
    block = await h.general.getBlock({ blockNumber: sealed.number })
  })
  afterAll(() => h?.close())

  const result = async (endpoint: 'general' | 'flashblocks', method: string, params: unknown[]) => {
    const reply = await h.rpc(endpoint, method, params)
    expect(reply.error).toBeUndefined()
    return reply.result as Hex & Hex[]
  }

  test('the raw header hashes to the block hash, by number and by hash', async () => {
    const header = await result('general', 'debug_getRawHeader', [`0x${block.number.toString(16)}`])
    expect(keccak256(header)).toBe(block.hash)
    expect(await result('general', 'debug_getRawHeader', [block.hash])).toBe(header)
  })

  test('the raw block holds that header and transactions whose trie root is the header’s', async () => {
    const raw = await result('general', 'debug_getRawBlock', ['latest'])
    const [header, txs, uncles, withdrawals] = fromRlp(raw, 'hex') as [Hex[], (Hex | Hex[])[], Hex[], Hex[]]
    expect(keccak256(await result('general', 'debug_getRawHeader', ['latest']))).toBe(block.hash)
    expect(header.length).toBeGreaterThan(15)
    expect(uncles).toEqual([])
    expect(withdrawals).toEqual([])
    const encoded = txs.map((t) => hexToBytes(t as Hex))
    expect(orderedTrieRoot(encoded)).toEqual(hexToBytes(block.transactionsRoot))
    expect(keccak256(txs.at(-1) as Hex)).toBe(transfer)
  })

  test('the raw receipts, deposit first, give the header’s receipts root', async () => {
    const receipts = await result('general', 'debug_getRawReceipts', [block.hash])
    expect(receipts).toHaveLength(2)
    expect(receipts[0]!.startsWith('0x7e')).toBe(true)
    expect(receipts[1]!.startsWith('0x02')).toBe(true)
    expect(orderedTrieRoot(receipts.map((r) => hexToBytes(r)))).toEqual(hexToBytes(block.receiptsRoot))
  })

  test('a raw transaction is found preconfirmed on /flashblocks and pooled on /, and is 0x when unknown', async () => {
    const pooled = await h.wallet.sendTransaction({ to: BOB, value: 2n, gas: 21_000n, ...h.fees() })
    const raw = await result('general', 'debug_getRawTransaction', [pooled])
    expect(keccak256(raw)).toBe(pooled)
    await h.chain.buildNow()
    expect(await result('flashblocks', 'debug_getRawTransaction', [pooled])).toBe(raw)
    const pendingReceipts = await result('flashblocks', 'debug_getRawReceipts', ['pending'])
    expect(pendingReceipts).toHaveLength(2)
    expect(await result('general', 'debug_getRawTransaction', [`0x${'12'.repeat(32)}`])).toBe('0x')
  })

  test('an unknown block answers -32000 `block #N not found`; a number without 0x is -32602', async () => {
    expect((await h.rpc('general', 'debug_getRawBlock', ['0x999'])).error).toEqual({
      code: -32000,
      message: 'block #2457 not found',
    })
    expect((await h.rpc('general', 'debug_getRawHeader', ['2'])).error?.code).toBe(-32602)
  })
})
