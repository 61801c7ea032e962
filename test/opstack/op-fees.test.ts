/**
 * The chain with OP Stack fees on: every user transaction pays the Fjord L1 data fee and the Jovian operator
 * fee on top of gas, the vaults receive them (and the base fee, which OP chains do not burn), and receipts
 * carry the OP fields op-geth serves.
 */
import { afterEach, expect, test } from 'vitest'
import { Address, bytesToHex } from '@ethereumjs/util'
import type { Chain } from '../../src/chain/chain.js'
import { createChain } from '../../src/chain/create-chain.js'
import { signTx } from '../support/sign-tx.js'
import { defaultConfig } from '../../src/config.js'
import { formatReceipt } from '../../src/format/receipt.js'
import { BASE_FEE_VAULT, L1_FEE_VAULT, OPERATOR_FEE_VAULT, SEQUENCER_FEE_VAULT } from '../../src/opstack/addresses.js'
import { fjordL1Cost } from '../../src/opstack/l1-fee.js'
import { jovianOperatorFee } from '../../src/opstack/operator-fee.js'
import { DEFAULT_L1_SETTINGS } from '../../src/opstack/l1-origin.js'

let chain: Chain | undefined
afterEach(async () => {
  await chain?.stop()
  chain = undefined
})

const settings = { ...DEFAULT_L1_SETTINGS, operatorFeeScalar: 3n, operatorFeeConstant: 1_000n }

async function balances(c: Chain, root: Uint8Array, addresses: Uint8Array[]) {
  const state = c.stateAt(root)
  return Promise.all(addresses.map(async (a) => (await state.getAccount(new Address(a)))?.balance ?? 0n))
}

test('a transfer pays value, gas, the L1 fee and the operator fee, and each vault receives its part', async () => {
  const c = (chain = await createChain({ ...defaultConfig({ quiet: true }), opFees: true, l1Settings: settings }))
  const [alice, bob] = [c.accounts[0]!.address, c.accounts[1]!.address]
  const watched = [alice, bob, L1_FEE_VAULT, OPERATOR_FEE_VAULT, BASE_FEE_VAULT, SEQUENCER_FEE_VAULT]
  const before = await balances(c, c.store.latest().header.stateRoot, watched)
  const raw = await signTx(c, 0, { nonce: 0, value: 12_345n })
  await c.sendRawTransaction(raw)
  const block = await c.mine()
  const receipt = block.receipts[1]! // after the L1-info deposit
  const after = await balances(c, block.header.stateRoot, watched)
  const l1Fee = fjordL1Cost(raw, settings).l1Fee
  const operatorFee = jovianOperatorFee(receipt.gasUsed, settings)
  expect(l1Fee).toBeGreaterThan(0n)
  expect(receipt.op).toMatchObject({ l1Fee, operatorFee })
  expect(before[0]! - after[0]!).toBe(12_345n + receipt.gasUsed * receipt.effectiveGasPrice + l1Fee + operatorFee)
  expect(after[1]! - before[1]!).toBe(12_345n)
  expect(after[2]! - before[2]!).toBe(l1Fee)
  expect(after[3]! - before[3]!).toBe(operatorFee)
  expect(after[4]! - before[4]!).toBe(receipt.gasUsed * block.header.baseFeePerGas!)
  expect(after[5]! - before[5]!).toBe(receipt.gasUsed * (receipt.effectiveGasPrice - block.header.baseFeePerGas!))

  const json = formatReceipt(block, 1) as Record<string, unknown>
  expect(json).toMatchObject({
    l1Fee: `0x${l1Fee.toString(16)}`,
    l1GasPrice: `0x${settings.l1BaseFee.toString(16)}`,
    l1GasUsed: '0x640',
    l1BaseFeeScalar: `0x${settings.baseFeeScalar.toString(16)}`,
    l1BlobBaseFee: '0x1',
    l1BlobBaseFeeScalar: `0x${settings.blobBaseFeeScalar.toString(16)}`,
    operatorFeeScalar: '0x3',
    operatorFeeConstant: '0x3e8',
    daFootprintGasScalar: '0x190',
    blobGasUsed: `0x${(100n * 400n).toString(16)}`,
  })
})

test('a sender who can pay gas and value but not the L1 fee is refused before running', async () => {
  const c = (chain = await createChain({
    ...defaultConfig({ quiet: true, balance: 10n ** 18n }),
    opFees: true,
    l1Settings: { ...settings, l1BaseFee: 10n ** 18n },
  }))
  await c.sendRawTransaction(await signTx(c, 0, { nonce: 0, value: 1n }))
  const block = await c.mine()
  expect(block.txs).toHaveLength(1) // the L1-info deposit only
})

test('without opFees the chain charges gas only and receipts have no OP fields', async () => {
  const c = (chain = await createChain(defaultConfig({ quiet: true, opFees: false })))
  await c.sendRawTransaction(await signTx(c, 0, { nonce: 0, value: 1n }))
  const block = await c.mine()
  expect(block.receipts[1]!.op).toBeUndefined()
  expect(formatReceipt(block, 1)).not.toHaveProperty('l1Fee')
  expect(bytesToHex(block.txs[1]!.sender)).toBe(bytesToHex(c.accounts[0]!.address))
})
