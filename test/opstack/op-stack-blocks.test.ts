/**
 * X Layer-shaped blocks on the embedded chain, read by viem with the OP Stack chain config: every block opens
 * with the L1-info deposit (which keeps L1Block, and so the GasPriceOracle, on the simulated L1 origin), a
 * deposit sent with eth_sendRawTransaction lands right after it, and user transactions pay gas, the L1 data
 * fee and the operator fee, each landing in its vault.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import { RLP } from '@ethereumjs/rlp'
import {
  type Hex,
  bytesToHex,
  createPublicClient,
  createWalletClient,
  hexToBytes,
  http,
  keccak256,
  parseAbi,
  parseGwei,
} from 'viem'
import { publicActionsL2, serializeTransaction } from 'viem/op-stack'
import { privateKeyToAccount } from 'viem/accounts'
import type { RunningService } from '../../src/service.js'
import type { Chain } from '../../src/chain/chain.js'
import { DEFAULT_L1_SETTINGS, l1OriginAt } from '../../src/opstack/l1-origin.js'
import { DEV_KEY_1, BOB } from '../support/dev-keys.js'
import { opStackChain, startFrozenService } from '../support/harness.js'
import { rpc } from '../support/rpc.js'

let service: RunningService
const l1Settings = {
  l1BaseFee: 7_000_000_000n,
  blobBaseFee: 3n,
  baseFeeScalar: 2000n,
  blobBaseFeeScalar: 700_000n,
  operatorFeeScalar: 5n,
  operatorFeeConstant: 1234n,
}
const L1_BLOCK = '0x4200000000000000000000000000000000000015'
const VAULTS = {
  sequencer: '0x4200000000000000000000000000000000000011',
  base: '0x4200000000000000000000000000000000000019',
  l1: '0x420000000000000000000000000000000000001a',
  operator: '0x420000000000000000000000000000000000001b',
} as const

beforeAll(async () => {
  service = await startFrozenService({
    l1Settings: { ...DEFAULT_L1_SETTINGS, ...l1Settings },
  })
})
afterAll(async () => service?.close())

const client = () => createPublicClient({ chain: opStackChain, transport: http(service.url) }).extend(publicActionsL2())
const chain = () => service.chain as Chain

test('every block opens with the L1-info deposit, which viem parses, and L1Block follows the simulated L1 origin', async () => {
  const c = client()
  const sealed = await chain().mine()
  const block = await c.getBlock({ blockNumber: sealed.number, includeTransactions: true })
  const info = block.transactions[0]!
  expect(info.type).toBe('deposit')
  if (info.type !== 'deposit') throw new Error('unreachable')
  expect(info.from).toBe('0xdeaddeaddeaddeaddeaddeaddeaddeaddead0001')
  expect(info.to).toBe(L1_BLOCK)
  expect(info.sourceHash).toMatch(/^0x[0-9a-f]{64}$/)
  expect(info.mint).toBe(0n)
  expect(info.gas).toBe(1_000_000n)
  const receipt = await c.getTransactionReceipt({ hash: info.hash })
  expect(receipt.status).toBe('success')
  // viem keeps a deposit receipt's type as op-geth sends it
  expect(receipt.type).toBe('0x7e')
  expect(receipt.transactionIndex).toBe(0)
  const raw = (await rpc(service.url, 'eth_getTransactionReceipt', [info.hash])).result as Record<string, Hex>
  expect(raw.depositReceiptVersion).toBe('0x1')
  expect(raw.depositNonce).toMatch(/^0x[0-9a-f]+$/)
  expect(raw.effectiveGasPrice).toBe('0x0')
  expect((await rpc(service.url, 'eth_getRawTransactionByHash', [info.hash])).result).toMatch(/^0x7e/)
  // the deposit wrote the L1 origin of the block's timestamp into L1Block
  const abi = parseAbi(['function number() view returns (uint64)', 'function basefee() view returns (uint256)'])
  const l1Number = await c.readContract({ address: L1_BLOCK, abi, functionName: 'number', blockNumber: block.number })
  expect(l1Number).toBe(l1OriginAt(block.timestamp).number)
  expect(await c.readContract({ address: L1_BLOCK, abi, functionName: 'basefee', blockNumber: block.number })).toBe(
    l1Settings.l1BaseFee,
  )
  // the GasPriceOracle reads it (latest is this block)
  expect(await c.getL1BaseFee()).toBe(l1Settings.l1BaseFee)
})

test('a transfer pays value, gas, the L1 fee and the operator fee; estimateL1Fee and the vaults agree with its receipt', async () => {
  const c = client()
  const account = privateKeyToAccount(DEV_KEY_1)
  const wallet = createWalletClient({ account, chain: opStackChain, transport: http(service.url) })
  const watched = [account.address, VAULTS.l1, VAULTS.operator, VAULTS.base, VAULTS.sequencer] as const
  const before = await Promise.all(watched.map((address) => c.getBalance({ address })))
  const request = {
    to: '0x000000000000000000000000000000000000bEEF',
    value: 777n,
    nonce: await c.getTransactionCount({ address: account.address }),
    gas: 21_000n,
    maxFeePerGas: parseGwei('10'),
    maxPriorityFeePerGas: parseGwei('1'),
  } as const
  const estimate = await c.estimateL1Fee({ account, ...request })
  const hash = await wallet.sendTransaction(request)
  const sealed = await chain().mine()
  const receipt = await c.getTransactionReceipt({ hash })
  expect(receipt.transactionIndex).toBe(1)
  expect(receipt.l1Fee).toBe(estimate)
  expect(receipt.l1Fee).toBeGreaterThan(0n)
  expect(receipt.l1GasPrice).toBe(l1Settings.l1BaseFee)
  const raw = (await rpc(service.url, 'eth_getTransactionReceipt', [hash])).result as Record<string, Hex>
  expect(BigInt(raw.l1BaseFeeScalar!)).toBe(l1Settings.baseFeeScalar)
  expect(BigInt(raw.operatorFeeScalar!)).toBe(l1Settings.operatorFeeScalar)
  expect(BigInt(raw.operatorFeeConstant!)).toBe(l1Settings.operatorFeeConstant)
  // Jovian: operatorFee = gasUsed * scalar * 100 + constant
  const operatorFee = receipt.gasUsed * l1Settings.operatorFeeScalar * 100n + l1Settings.operatorFeeConstant
  const after = await Promise.all(watched.map((address) => c.getBalance({ address, blockNumber: sealed.number })))
  const gasCost = receipt.gasUsed * receipt.effectiveGasPrice
  expect(before[0]! - after[0]!).toBe(777n + gasCost + receipt.l1Fee! + operatorFee)
  expect(after[1]! - before[1]!).toBe(receipt.l1Fee)
  expect(after[2]! - before[2]!).toBe(operatorFee)
  const baseFee = (await c.getBlock({ blockNumber: sealed.number })).baseFeePerGas!
  expect(after[3]! - before[3]!).toBe(receipt.gasUsed * baseFee)
  expect(after[4]! - before[4]!).toBe(gasCost - receipt.gasUsed * baseFee)
  // eth_estimateGas stays gas only (as op-geth)
  expect(await c.estimateGas({ account: account.address, to: BOB, value: 1n })).toBe(21_000n)
})

test('a deposit sent with eth_sendRawTransaction lands after the next L1-info deposit, mints, and a bad one is refused', async () => {
  const c = client()
  const from = '0x00000000000000000000000000000000000d3905' as const
  const deposit = serializeTransaction({
    type: 'deposit',
    sourceHash: keccak256('0x01'),
    from,
    to: BOB,
    mint: 5n * 10n ** 18n,
    value: 10n ** 18n,
    gas: 100_000n,
    data: '0x',
  })
  const reply = await rpc(service.url, 'eth_sendRawTransaction', [deposit])
  expect(reply.error).toBeUndefined()
  const hash = reply.result as Hex
  expect(hash).toBe(keccak256(deposit))
  const sealed = await chain().mine()
  const block = await c.getBlock({ blockNumber: sealed.number, includeTransactions: true })
  expect(block.transactions.map((t) => t.type)).toEqual(['deposit', 'deposit'])
  expect(block.transactions[1]!.hash).toBe(hash)
  const receipt = (await rpc(service.url, 'eth_getTransactionReceipt', [hash])).result as Record<string, Hex>
  expect(receipt).toMatchObject({ status: '0x1', depositNonce: '0x0', depositReceiptVersion: '0x1', gasUsed: '0x5208' })
  expect(await c.getBalance({ address: from, blockNumber: sealed.number })).toBe(4n * 10n ** 18n)
  expect(await c.getTransactionCount({ address: from, blockNumber: sealed.number })).toBe(1)
  const tx = (await rpc(service.url, 'eth_getTransactionByHash', [hash])).result as Record<string, Hex>
  expect(tx).toMatchObject({ type: '0x7e', mint: '0x4563918244f40000', nonce: '0x0', from })
  // tracing a block with deposits: a call frame for the deposit
  const traces = (
    await rpc(service.url, 'debug_traceBlockByNumber', [`0x${sealed.number.toString(16)}`, { tracer: 'callTracer' }])
  ).result as { result: { type: string; from: string; to: string } }[]
  expect(traces).toHaveLength(2)
  expect(traces[1]!.result).toMatchObject({ type: 'CALL', from, to: BOB })
  // a wrong field: 7 fields instead of 8
  const bad = (await rpc(service.url, 'eth_sendRawTransaction', [`0x7e${deposit.slice(6, -2)}`])).error
  expect(bad?.code).toBe(-32602)
  expect(bad?.message).toMatch(/invalid deposit transaction/)
  // a wrong field is named, on both endpoints
  const fields = RLP.decode(hexToBytes(`0x${deposit.slice(4)}`)) as Uint8Array[]
  fields[1] = fields[1]!.subarray(1) // a 19-byte from
  const wrongFrom = `0x7e${bytesToHex(RLP.encode(fields)).slice(2)}`
  for (const url of [service.url, service.flashblocksUrl]) {
    const refused = (await rpc(url, 'eth_sendRawTransaction', [wrongFrom])).error
    expect(refused).toEqual({ code: -32602, message: 'invalid deposit transaction: from must be a 20-byte address' })
  }
})
