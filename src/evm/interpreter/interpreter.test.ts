/**
 * The interpreter against the reference on a real chain: the same request on the plain-call path with the
 * interpreter (src/evm/interpreter/), with the patched @ethereumjs loop alone, and on runTx's path must give
 * the same error, output, gas used and logs. The state tests (test/evm-state/interpreter.test.ts) cover the
 * opcodes one by one; these are the contracts users call.
 */
import { hexToBytes } from '@ethereumjs/util'
import { encodeDeployData, encodeFunctionData, getContractAddress, type Abi, type Hex } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import heavy from '../../../test/fixtures/HeavyCalls.json' with { type: 'json' }
import { testToken } from '../../../test/support/fixtures.js'
import { signTx } from '../../../test/support/sign-tx.js'
import type { Chain } from '../../chain/chain.js'
import { createChain } from '../../chain/create-chain.js'
import { defaultConfig } from '../../config.js'
import type { CallRequest } from '../../domain/call-request.js'
import { CallEvms } from '../execution/fast-call.js'
import { execute } from '../execution/run.js'
import { VmPool } from '../execution/vm-pool.js'
import { interpreterStats } from './stats.js'

const heavyCalls = heavy.HeavyCalls as unknown as { abi: Abi; bytecode: Hex }
let chain: Chain
let token: Uint8Array
let calls: Uint8Array
const holders = Array.from({ length: 100 }, (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')}` as Hex)

async function deploy(nonce: number, data: Hex): Promise<Uint8Array> {
  await chain.sendRawTransaction(await signTx(chain, 0, { to: null, nonce, gas: 5_000_000n, data: hexToBytes(data) }))
  await chain.mine()
  const from = `0x${Buffer.from(chain.accounts[0].address).toString('hex')}` as Hex
  return hexToBytes(getContractAddress({ from, nonce: BigInt(nonce) }))
}

const tokenCall = (functionName: string, args: unknown[] = []) =>
  hexToBytes(encodeFunctionData({ abi: testToken.abi, functionName, args } as never))
const heavyCall = (functionName: string, args: unknown[] = []) =>
  hexToBytes(encodeFunctionData({ abi: heavyCalls.abi, functionName, args } as never))
const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}` as Hex

beforeAll(async () => {
  chain = await createChain(defaultConfig({ quiet: true }))
  token = await deploy(0, encodeDeployData({ abi: testToken.abi, bytecode: testToken.bytecode, args: [10n ** 24n] }))
  calls = await deploy(1, heavyCalls.bytecode)
  const data = heavyCall('addPools', [8n, 7n])
  await chain.sendRawTransaction(await signTx(chain, 0, { to: calls, nonce: 2, gas: 3_000_000n, data }))
  for (let i = 0; i < 5; i++) {
    const transfer = tokenCall('transfer', [holders[i * 7], BigInt(i + 1) * 10n ** 18n])
    await chain.sendRawTransaction(await signTx(chain, 0, { to: token, nonce: 3 + i, gas: 100_000n, data: transfer }))
  }
  await chain.mine()
})

afterAll(() => chain.stop())

async function threeWays(request: CallRequest, gas = 30_000_000n) {
  const header = chain.store.latest().header
  const reader = chain.readerAt(header.stateRoot)
  const answered = interpreterStats.answered
  const interpreted = await new CallEvms(chain.vm, undefined, true).runOnce(reader, header, request, gas)
  const ranInterpreter = interpreterStats.answered > answered
  const reference = await new CallEvms(chain.vm, undefined, false).runOnce(reader, header, request, gas)
  const env = { vm: chain.vm, vms: new VmPool(chain.vm), stateRoot: header.stateRoot, header }
  const runTx = await execute(env, request, gas)
  return {
    interpreted: interpreted!.execResult,
    reference: reference!.execResult,
    runTx: runTx.execResult,
    ranInterpreter,
  }
}

function expectSame(a: Awaited<ReturnType<typeof threeWays>>['runTx'], b: typeof a, what: string) {
  expect(a.exceptionError?.error, what).toBe(b.exceptionError?.error)
  expect(hex(a.returnValue), what).toBe(hex(b.returnValue))
  expect(a.executionGasUsed, what).toBe(b.executionGasUsed)
  expect(JSON.stringify(a.logs ?? []), what).toBe(JSON.stringify(b.logs ?? []))
}

const aggregate = (n: number) =>
  heavyCall('aggregate', [
    holders.slice(0, n).map((h) => ({ target: hex(token), callData: hex(tokenCall('balanceOf', [h])) })),
  ])

test.each([
  ['balanceOf', () => ({ to: token, data: tokenCall('balanceOf', [holders[7]]) })],
  [
    'a transfer with its log and SSTOREs',
    () => ({ from: chain.accounts[0].address, to: token, data: tokenCall('transfer', [holders[3], 5n]) }),
  ],
  ['a counter increment', () => ({ to: token, data: tokenCall('increment') })],
  ['a custom-error revert', () => ({ from: chain.accounts[1].address, to: token, data: tokenCall('onlyZero') })],
  ['an empty revert', () => ({ to: token, data: tokenCall('failEmpty') })],
  ['a require revert with a reason', () => ({ to: token, data: tokenCall('transfer', [holders[2], 5n]) })],
  ['an aggregate of 100 balanceOf (Multicall3 style)', () => ({ to: calls, data: aggregate(100) })],
  [
    'a quote along 8 pools, 20 rounds of 512-bit mulDiv',
    () => ({ to: calls, data: heavyCall('quote', [10n ** 20n, 20n]) }),
  ],
  [
    'a call to an account without code',
    () => ({ to: hexToBytes(`0x${'33'.repeat(20)}`), data: tokenCall('increment') }),
  ],
])('the interpreter runs %s exactly as the reference and runTx do', async (name, request) => {
  const { interpreted, reference, runTx, ranInterpreter } = await threeWays(request())
  expect(ranInterpreter, name).toBe(true)
  expectSame(interpreted, reference, `${name}: interpreter vs the patched loop`)
  expectSame(interpreted, runTx, `${name}: interpreter vs runTx`)
})

test.each([90_000n, 120_000n, 250_000n, 400_000n])(
  'an aggregate short of gas (%i) fails the same way on the interpreter',
  async (gas) => {
    const { interpreted, runTx } = await threeWays({ to: calls, data: aggregate(20) }, gas)
    expectSame(interpreted, runTx, `aggregate with ${gas} gas`)
  },
)

test('a call the interpreter does not run (a CREATE) is counted and answered by the reference path', async () => {
  const before = interpreterStats.fallbacks.get('CREATE') ?? 0
  const { interpreted, runTx, ranInterpreter } = await threeWays({ to: token, data: tokenCall('spawn') })
  expect(ranInterpreter).toBe(false)
  expect(interpreterStats.fallbacks.get('CREATE')).toBe(before + 1)
  expectSame(interpreted, runTx, 'spawn')
})

test('the fallbacks are on /metrics by reason', async () => {
  const { ServiceMetrics } = await import('../../metrics/service-metrics.js')
  const metrics = new ServiceMetrics({
    backend: chain,
    subscriptions: { count: () => 0 },
    feed: { count: () => 0 },
  })
  await threeWays({ to: token, data: tokenCall('spawn') })
  const text = await metrics.text()
  metrics.close()
  expect(text).toMatch(/preconf_evm_interpreter_fallbacks_total\{reason="CREATE"\} [1-9]/)
  expect(text).toMatch(/preconf_evm_interpreter_calls_total [1-9]/)
})
