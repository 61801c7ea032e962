import { hexToBytes } from '@ethereumjs/util'
import { encodeDeployData } from 'viem'
import { afterEach, describe, expect, test } from 'vitest'
import { signTx } from '../../test/support/sign-tx.js'
import { testToken } from '../../test/support/fixtures.js'
import type { Chain } from '../chain/chain.js'
import { createChain } from '../chain/create-chain.js'
import { defaultConfig } from '../config.js'
import type { Flashblock } from '../domain/types.js'
import { formatReceipt } from '../format/receipt.js'
import { EarlyReceipts } from './early-receipts.js'

let chain: Chain | undefined
afterEach(async () => {
  await chain?.stop()
  chain = undefined
})

/** Block 1 as three flashblocks: the L1-info deposit; a deployment that logs and a transfer; two transfers. */
async function threeFlashblocks(): Promise<{ c: Chain; frames: Flashblock[] }> {
  chain = await createChain(defaultConfig({ quiet: true }))
  const c = chain
  const frames = [await c.buildNow()]
  const data = hexToBytes(encodeDeployData({ abi: testToken.abi, bytecode: testToken.bytecode, args: [10n ** 24n] }))
  await c.sendRawTransaction(await signTx(c, 0, { nonce: 0, to: null, data, gas: 3_000_000n }))
  await c.sendRawTransaction(await signTx(c, 1, { nonce: 0, value: 5n, type: 'legacy' }))
  frames.push(await c.buildNow())
  await c.sendRawTransaction(await signTx(c, 2, { nonce: 0, value: 6n }))
  await c.sendRawTransaction(await signTx(c, 1, { nonce: 1, value: 7n, type: 'eip2930' }))
  frames.push(await c.buildNow())
  return { c, frames }
}

const early = (c: Chain) => new EarlyReceipts({ common: c.common, canonicalHeight: () => 0n })
const withoutOpFees = (receipt: Record<string, unknown>) => {
  const { l1Fee, l1GasPrice, l1GasUsed, l1BaseFeeScalar, l1BlobBaseFee, l1BlobBaseFeeScalar, ...rest } = receipt
  const { operatorFeeScalar, operatorFeeConstant, daFootprintGasScalar, blobGasUsed, ...gasOnly } = rest
  return gasOnly
}

describe("receipts from a frame's metadata", () => {
  test("are the chain's own receipts, but for the OP fee fields only re-execution knows", async () => {
    const { c, frames } = await threeFlashblocks()
    const receipts = early(c)
    for (const frame of frames) receipts.onFrame(frame)
    const block = c.pending.current()!.block
    expect(block.txs).toHaveLength(5)
    expect(block.logs.length).toBeGreaterThan(0)
    block.txs.forEach(({ hash }, i) => {
      const found = receipts.tx(hash)!
      expect(withoutOpFees(formatReceipt(found.block, found.index))).toEqual(withoutOpFees(formatReceipt(block, i)))
    })
    expect(receipts.stats.received).toBe(5)
  })

  test('a frame without them (as Base sends) leaves the rest of its block to re-execution', async () => {
    const { c, frames } = await threeFlashblocks()
    const receipts = early(c)
    const [zero, one, two] = frames
    receipts.onFrame(zero)
    receipts.onFrame({ ...one, metadata: { ...one.metadata, receipts: [] } })
    receipts.onFrame(two)
    expect(receipts.tx(zero.executed.txs[0].hash)).toBeDefined()
    for (const { hash } of [...one.executed.txs, ...two.executed.txs]) expect(receipts.tx(hash)).toBeUndefined()
  })

  test('go when re-execution publishes them, when their block is dropped or a gap breaks it, and when it is canonical', async () => {
    const { c, frames } = await threeFlashblocks()
    const [zero, one, two] = frames
    const hashes = (fb: Flashblock) => fb.executed.txs.map((t) => t.hash)

    const settled = early(c)
    for (const frame of frames) settled.onFrame(frame)
    settled.settle(one.executed.txs)
    expect(hashes(one).map((h) => settled.tx(h))).toEqual([undefined, undefined])
    expect(settled.tx(hashes(two)[0])).toBeDefined()
    settled.settleCanonical(1n)
    expect(settled.tx(hashes(zero)[0])).toBeUndefined()
    expect(settled.stats.withdrawn).toBe(0)

    const gap = early(c)
    gap.onFrame(zero)
    gap.onFrame(two)
    expect(gap.tx(hashes(zero)[0])).toBeUndefined()
    expect(gap.tx(hashes(two)[0])).toBeUndefined()
    expect(gap.stats.withdrawn).toBe(1)

    const dropped = early(c)
    for (const frame of frames) dropped.onFrame(frame)
    dropped.forgetFrom(1n)
    expect([...hashes(zero), ...hashes(one), ...hashes(two)].map((h) => dropped.tx(h))).toEqual(
      Array(5).fill(undefined),
    )
    expect(dropped.stats.withdrawn).toBe(5)
    // the dropped block's later frames are not taken either: re-execution breaks its sequence too
    expect(dropped.onFrame(two)).toBeUndefined()
  })
})
