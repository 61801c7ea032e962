import { hexToBytes } from '@ethereumjs/util'
import { encodeDeployData, encodeFunctionData, getContractAddress, type Hex } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { signTx } from '../../../test/support/sign-tx.js'
import { expectBothPathsAgree, onBothPaths } from '../../../test/support/call-paths.js'
import { testToken } from '../../../test/support/fixtures.js'
import { defaultConfig } from '../../config.js'
import type { CallRequest } from '../../domain/call-request.js'
import type { Chain } from '../../chain/chain.js'
import { createChain } from '../../chain/create-chain.js'
import { CallEvms } from './fast-call.js'
import { estimateGas } from './estimate.js'
import { VmPool } from './vm-pool.js'

let chain: Chain
let token: Uint8Array

beforeAll(async () => {
  chain = await createChain(defaultConfig({ quiet: true }))
  const data = hexToBytes(encodeDeployData({ abi: testToken.abi, bytecode: testToken.bytecode, args: [10n ** 24n] }))
  await chain.sendRawTransaction(await signTx(chain, 0, { to: null, nonce: 0, gas: 3_000_000n, data }))
  await chain.mine()
  const from = chain.accounts[0].address
  token = hexToBytes(getContractAddress({ from: `0x${Buffer.from(from).toString('hex')}` as Hex, nonce: 0n }))
})

afterAll(() => chain.stop())

const call = (functionName: string, args: unknown[] = []) =>
  hexToBytes(encodeFunctionData({ abi: testToken.abi, functionName, args } as never))

const both = (request: CallRequest, gas?: bigint) => onBothPaths(chain, request, gas)

test.each([
  ['a view (balanceOf)', () => ({ to: token, data: call('balanceOf', [`0x${'11'.repeat(20)}`]) })],
  [
    'a storage write (transfer) from the holder',
    () => ({ from: chain.accounts[0].address, to: token, data: call('transfer', [`0x${'22'.repeat(20)}`, 5n]) }),
  ],
  ['a counter increment', () => ({ to: token, data: call('increment') })],
  ['a CREATE and a call into the new contract (spawn)', () => ({ to: token, data: call('spawn') })],
  [
    'a custom-error revert (onlyZero from a dev account)',
    () => ({ from: chain.accounts[1].address, to: token, data: call('onlyZero') }),
  ],
  ['an empty revert', () => ({ to: token, data: call('failEmpty') })],
  ['a call to an account without code', () => ({ to: hexToBytes(`0x${'33'.repeat(20)}`), data: call('increment') })],
  ['a call to a precompile (SHA-256)', () => ({ to: hexToBytes(`0x${'00'.repeat(19)}02`), data: call('increment') })],
  [
    'a require revert with a reason (transfer without balance)',
    () => ({ to: token, data: call('transfer', [`0x${'22'.repeat(20)}`, 5n]) }),
  ],
])('a plain call runs exactly as under runTx: %s', async (name, request) => {
  await expectBothPathsAgree(chain, request(), undefined, name)
})

test.each([30_000n, 60_000n, 100_000n])('a call short of gas (%i) fails the same way on both paths', async (gas) => {
  const request = { to: token, data: call('spawn') }
  const { fast } = await both(request, gas)
  expect(fast.exceptionError).toBeDefined()
  await expectBothPathsAgree(chain, request, gas, `spawn with ${gas} gas`)
})

test('what a call writes is gone for the next call on the same root', async () => {
  const request = { to: token, data: call('increment') }
  const first = await both(request)
  const second = await both(request)
  expect(second.fast.returnValue).toEqual(first.fast.returnValue)
})

test('requests the fast path cannot answer exactly are left to runTx', async () => {
  const header = chain.store.latest().header
  const calls = new CallEvms(chain.vm)
  const reader = chain.readerAt(header.stateRoot)
  const data = call('balanceOf', [`0x${'11'.repeat(20)}`])
  const baseFee = header.baseFeePerGas!
  const poor = hexToBytes(`0x${'44'.repeat(20)}`)
  for (const request of [
    { to: token, data, gasPrice: baseFee - 1n }, // below the base fee: runTx's error
    { to: token, data, maxFeePerGas: baseFee, maxPriorityFeePerGas: baseFee + 1n }, // a tip above the fee cap
    { to: token, data, from: poor, gasPrice: baseFee }, // fee fields and no balance to pay them
    { to: token, data, accessList: [{ address: token, storageKeys: [] }] },
    { data },
    { to: token, data, from: token }, // a sender with code
  ])
    expect(await calls.run(reader, header, request, 30_000_000n)).toBeUndefined()
  expect(await calls.run(reader, header, { to: token, data }, 21_000n)).toBeUndefined() // under intrinsic gas
})

test.each([
  [
    'a transfer from the holder',
    () => ({ from: chain.accounts[0].address, to: token, data: call('transfer', [`0x${'22'.repeat(20)}`, 5n]) }),
  ],
  ['a counter increment', () => ({ to: token, data: call('increment') })],
  ['a CREATE and a call into the new contract', () => ({ to: token, data: call('spawn') })],
  ['a view', () => ({ to: token, data: call('balanceOf', [`0x${'11'.repeat(20)}`]) })],
])(
  'eth_estimateGas finds the same gas with its trials on the plain-call path as under runTx: %s',
  async (_, request) => {
    const header = chain.store.latest().header
    const env = { vm: chain.vm, vms: new VmPool(chain.vm), stateRoot: header.stateRoot, header }
    const view = chain.readerAt(header.stateRoot)
    const underRunTx = await estimateGas(env, request())
    const onFastPath = await estimateGas({ ...env, view, calls: new CallEvms(chain.vm) }, request())
    expect(onFastPath).toBe(underRunTx)
  },
)
