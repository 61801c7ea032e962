/**
 * Jovian's DA footprint on the embedded chain, read over JSON-RPC by viem: a block's `blobGasUsed` is the sum
 * of its user transactions' footprints (estimated compressed size × daFootprintGasScalar, shown on each
 * receipt), a block is full when that sum would pass the gas limit even with gas to spare (the next sender
 * waits for the next block), and the next base fee meters max(gasUsed, blobGasUsed).
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import { randomBytes } from 'node:crypto'
import { bytesToHex } from '@ethereumjs/util'
import { createPublicClient, type Hex, http } from 'viem'
import type { RunningService } from '../../src/service.js'
import type { Chain } from '../../src/chain/chain.js'
import { DEFAULT_L1_SETTINGS } from '../../src/opstack/l1-origin.js'
import { daUsageEstimate } from '../../src/opstack/da-footprint.js'
import { opStackChain, startFrozenService } from '../support/harness.js'
import { rpc } from '../support/rpc.js'
import { signTx } from '../support/sign-tx.js'

const SCALAR = 1000n
let service: RunningService
beforeAll(async () => {
  // Ethereum's EIP-1559 parameters in every block's extraData, so the footprint visibly moves the base fee
  service = await startFrozenService({
    gasLimit: 30_000_000n,
    eip1559Denominator: 8n,
    eip1559Elasticity: 2n,
    l1Settings: { ...DEFAULT_L1_SETTINGS, daFootprintGasScalar: SCALAR },
  })
})
afterAll(async () => service?.close())

const chain = () => service.chain as Chain
const client = () => createPublicClient({ chain: opStackChain, transport: http(service.url) })

test('a block is full when its DA footprint reaches the gas limit; blobGasUsed carries it and raises the next base fee', async () => {
  const c = client()
  // four senders, ~10 kB of incompressible calldata each: ~8.6 M footprint against a 30 M gas limit
  const raws = await Promise.all(
    [0, 1, 2, 3].map((from) =>
      signTx(chain(), from, { nonce: 0, gas: 500_000n, data: new Uint8Array(randomBytes(10_000)), value: 1n }),
    ),
  )
  const hashes: Hex[] = []
  for (const raw of raws)
    hashes.push((await rpc(service.url, 'eth_sendRawTransaction', [bytesToHex(raw)])).result as Hex)
  const footprints = raws.map((raw) => daUsageEstimate(raw) * SCALAR)
  const limit = 30_000_000n
  expect(footprints[0]! + footprints[1]! + footprints[2]!).toBeLessThanOrEqual(limit)
  expect(footprints[0]! + footprints[1]! + footprints[2]! + footprints[3]!).toBeGreaterThan(limit)

  const first = await chain().mine()
  const block = await c.getBlock({ blockNumber: first.number, includeTransactions: true })
  expect(block.gasLimit).toBe(limit)
  expect(block.transactions.map((t) => t.hash).slice(1)).toEqual(hashes.slice(0, 3))
  expect(block.blobGasUsed).toBe(footprints[0]! + footprints[1]! + footprints[2]!)
  expect(block.excessBlobGas).toBe(0n)
  // full by DA, not by gas: under 2 M gas used of 30 M
  expect(block.gasUsed).toBeLessThan(2_000_000n)
  for (const [i, hash] of hashes.slice(0, 3).entries()) {
    const receipt = (await rpc(service.url, 'eth_getTransactionReceipt', [hash])).result as Record<string, Hex>
    expect(BigInt(receipt.blobGasUsed!)).toBe(footprints[i])
    expect(BigInt(receipt.daFootprintGasScalar!)).toBe(SCALAR)
  }
  // the L1-info deposit has no footprint
  const info = (await rpc(service.url, 'eth_getTransactionReceipt', [block.transactions[0]!.hash])).result
  expect(info).not.toHaveProperty('blobGasUsed')
  // the fourth waited in the pool, not dropped
  expect((await rpc(service.url, 'eth_getTransactionByHash', [hashes[3]])).result).toMatchObject({ blockNumber: null })

  const second = await chain().mine()
  const next = await c.getBlock({ blockNumber: second.number, includeTransactions: true })
  expect(next.transactions.map((t) => t.hash).slice(1)).toEqual([hashes[3]])
  expect(next.blobGasUsed).toBe(footprints[3])
  // EIP-1559 on gasMetered = max(gasUsed, blobGasUsed): over the 15 M target, so the base fee rises
  const target = limit / 2n
  const baseFee = block.baseFeePerGas!
  const delta = (baseFee * (block.blobGasUsed - target)) / target / 8n
  expect(next.baseFeePerGas).toBe(baseFee + delta)
})

test('a transaction whose footprint alone passes the gas limit is dropped, not kept forever', async () => {
  const small = await startFrozenService({
    gasLimit: 2_000_000n,
    l1Settings: { ...DEFAULT_L1_SETTINGS, daFootprintGasScalar: SCALAR },
  })
  try {
    const raw = await signTx(small.chain as Chain, 4, {
      nonce: 0,
      gas: 600_000n,
      data: new Uint8Array(randomBytes(10_000)),
    })
    const hash = (await rpc(small.url, 'eth_sendRawTransaction', [bytesToHex(raw)])).result as Hex
    const sealed = await (small.chain as Chain).mine()
    expect(sealed.txs).toHaveLength(1)
    expect((await rpc(small.url, 'eth_getTransactionByHash', [hash])).result).toBeNull()
  } finally {
    await small.close()
  }
})
