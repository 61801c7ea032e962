import { createPartialAccount, hexToBytes } from '@ethereumjs/util'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { chainWithPrograms, expectBothPathsAgree } from '../../../test/support/call-paths.js'
import type { Chain } from '../../chain/chain.js'
import type { CallRequest } from '../../domain/call-request.js'
import { interpreterStats } from '../interpreter/stats.js'
import { paymentOf } from './call-payment.js'
import { estimateGas } from './estimate.js'
import { CallEvms } from './fast-call.js'
import { VmPool } from './vm-pool.js'

/**
 * Returns what a paying call changes for the code it runs: CALLVALUE, GASPRICE, SELFBALANCE, BALANCE(CALLER),
 * EXTCODEHASH(ORIGIN) (the sender exists once runTx bumped its nonce) and BASEFEE; with calldata, the same
 * words seen from a DELEGATECALL to itself (which keeps the call's value).
 */
const OBSERVER =
  '36602157' + // CALLDATASIZE, JUMPI to the DELEGATECALL
  '345f52' + // CALLVALUE at 0x00
  '3a602052' + // GASPRICE at 0x20
  '47604052' + // SELFBALANCE at 0x40
  '3331606052' + // BALANCE(CALLER) at 0x60
  '323f608052' + // EXTCODEHASH(ORIGIN) at 0x80
  '4860a052' + // BASEFEE at 0xa0
  '60c05ff3' + // RETURN 0xc0 bytes
  '5b5f5f5f5f305af450' + // JUMPDEST, DELEGATECALL(gas, self, no input, no output), POP
  '3d5f5f3e3d5ff3' // RETURNDATACOPY everything, RETURN it

let chain: Chain
let observer: Uint8Array
let baseFee: bigint
const rich = () => chain.accounts[0].address
const nobody = hexToBytes(`0x${'55'.repeat(20)}`)
const eoa = hexToBytes(`0x${'66'.repeat(20)}`)
const viaDelegate = Uint8Array.of(1)

beforeAll(async () => {
  ;({
    chain,
    contracts: { observer },
  } = await chainWithPrograms({ observer: OBSERVER }))
  baseFee = chain.store.latest().header.baseFeePerGas!
})

afterAll(() => chain.stop())

test.each<[string, () => CallRequest]>([
  ['a value from a sender who has it', () => ({ from: rich(), to: observer, value: 12345n })],
  [
    'a value from a sender who has nothing (no fee fields: runTx raises the balance)',
    () => ({ from: nobody, to: observer, value: 7n }),
  ],
  ['a legacy gas price above the base fee', () => ({ from: rich(), to: observer, gasPrice: baseFee * 3n })],
  [
    'fee caps whose tip fits under the cap',
    () => ({ from: rich(), to: observer, maxFeePerGas: baseFee * 4n, maxPriorityFeePerGas: 2n }),
  ],
  [
    'fee caps whose tip the cap cuts short',
    () => ({ from: rich(), to: observer, maxFeePerGas: baseFee + 3n, maxPriorityFeePerGas: 1_000_000n }),
  ],
  [
    'a value and fee caps, seen through a DELEGATECALL',
    () => ({ from: rich(), to: observer, value: 99n, maxFeePerGas: baseFee * 2n, data: viaDelegate }),
  ],
  ['a value seen through a DELEGATECALL', () => ({ from: nobody, to: observer, value: 5n, data: viaDelegate })],
  ['a value to an account without code', () => ({ from: rich(), to: eoa, value: 1n, gasPrice: baseFee })],
])('a paying call answers on the interpreter exactly as under runTx: %s', async (name, request) => {
  const answered = interpreterStats.answered
  await expectBothPathsAgree(chain, request(), 1_000_000n, name)
  if (request().to === observer) expect(interpreterStats.answered).toBeGreaterThan(answered)
})

test.each<[string, () => CallRequest]>([
  [
    'a transfer of value with fee caps',
    () => ({ from: rich(), to: eoa, value: 10n ** 15n, maxFeePerGas: baseFee * 2n }),
  ],
  ['a call with a value and a legacy price', () => ({ from: rich(), to: observer, value: 3n, gasPrice: baseFee })],
])('eth_estimateGas of a paying call finds the same gas on the interpreter as under runTx: %s', async (_, request) => {
  const header = chain.store.latest().header
  const env = { vm: chain.vm, vms: new VmPool(chain.vm), stateRoot: header.stateRoot, header }
  const underRunTx = await estimateGas(env, request())
  const answered = interpreterStats.answered
  const fast = await estimateGas(
    { ...env, view: chain.readerAt(header.stateRoot), calls: new CallEvms(chain.vm) },
    request(),
  )
  expect(fast).toBe(underRunTx)
  expect(interpreterStats.answered).toBeGreaterThan(answered)
})

test('a paying call the sender cannot pay for gets runTx’s error from eth_estimateGas on either path', async () => {
  const header = chain.store.latest().header
  const env = { vm: chain.vm, vms: new VmPool(chain.vm), stateRoot: header.stateRoot, header }
  const request = { from: nobody, to: observer, value: 1n, maxFeePerGas: baseFee * 2n }
  const fast = { ...env, view: chain.readerAt(header.stateRoot), calls: new CallEvms(chain.vm) }
  await expect(estimateGas(fast, request)).rejects.toThrow('insufficient funds')
  await expect(estimateGas(env, request)).rejects.toThrow('insufficient funds')
})

test('a sender known only by nonce and balance (a follower’s upstream-backed account) pays as a whole account does', () => {
  const partial = createPartialAccount({ nonce: 3n, balance: 10n ** 18n, storageRoot: null, codeHash: null })
  const paid = paymentOf({ to: eoa, value: 5n, gasPrice: 2n }, 21_000n, 1n, partial, undefined, false)!
  expect(paid.sender.nonce).toBe(4n)
  expect(paid.sender.balance).toBe(10n ** 18n - 21_000n * 2n - 5n)
  expect(paid.recipient!.balance).toBe(5n)
})
