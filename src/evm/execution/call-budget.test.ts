import { getContractAddress } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { chainWithPrograms } from '../../../test/support/call-paths.js'
import { devAccount } from '../../../test/support/dev-keys.js'
import { ExecutionTimeoutError } from '../../errors.js'
import type { Chain } from '../../chain/chain.js'
import { CallEvms } from './fast-call.js'
import { estimateGas } from './estimate.js'
import { execute } from './run.js'
import { VmPool } from './vm-pool.js'

/** JUMPDEST, PUSH1 0, JUMP: runs until its gas is gone. */
const LOOP = '5b600056'
/** JUMPDEST, GAS, PUSH2 10000, LT, PUSH1 0, JUMPI, STOP: spends all but 10 000 of its gas, then succeeds. */
const SPENDER = '5b5a6127101060005700'
/** CALL(gas, loop, 0, 0, 0, 0, 0) and STOP: the loop one frame down. */
const callInto = (to: Uint8Array) => `600080808080 73${Buffer.from(to).toString('hex')} 5a f1 00`.replaceAll(' ', '')

let chain: Chain
let contracts: Record<'loop' | 'caller' | 'stop' | 'spender', Uint8Array>

beforeAll(async () => {
  // the loop is dev account 0's first deployment, so the caller can name it before it exists
  const loop = Uint8Array.from(Buffer.from(getContractAddress({ from: devAccount.address, nonce: 0n }).slice(2), 'hex'))
  ;({ chain, contracts } = await chainWithPrograms({
    loop: LOOP,
    caller: callInto(loop),
    stop: '00',
    spender: SPENDER,
  }))
  expect(contracts.loop).toEqual(loop)
})

afterAll(() => chain.stop())

const runOn = (evms: CallEvms, to: Uint8Array) => {
  const header = chain.store.latest().header
  return evms.run(chain.readerAt(header.stateRoot), header, { to }, 16_000_000n)
}

test('a call past its time budget stops with geth’s timeout error, one frame down too, and its EVM takes the next call', async () => {
  const evms = new CallEvms(chain.vm, 50)
  // run to its end, the loop would answer "out of gas"; stopped, it rejects
  await expect(runOn(evms, contracts.loop)).rejects.toThrow(ExecutionTimeoutError)
  await expect(runOn(evms, contracts.caller)).rejects.toThrow('execution aborted (timeout = 0.05s)')
  const next = await runOn(evms, contracts.stop)
  expect(next?.execResult.exceptionError).toBeUndefined()
})

test('the event loop turns while a long call runs: timers fire before it ends', async () => {
  let fired = 0
  const timer = setInterval(() => fired++, 1)
  const result = await runOn(new CallEvms(chain.vm), contracts.loop)
  clearInterval(timer)
  expect(result?.execResult.exceptionError?.error).toBe('out of gas')
  expect(fired).toBeGreaterThan(0)
})

/** runTx's path (a value sent takes it): @ethereumjs's own loop, whose steps the budget counts. */
const viaRunTx = (vms: VmPool, to: Uint8Array, timeoutMs?: number) => {
  const header = chain.store.latest().header
  const env = { vm: chain.vm, vms, stateRoot: header.stateRoot, header }
  const request = { from: chain.accounts[0].address, to, value: 1n }
  return execute(env, request, 16_000_000n, undefined, { timeoutMs })
}

test('on runTx’s path too: a call past its budget stops with the timeout error and the next call runs', async () => {
  const vms = new VmPool(chain.vm)
  await expect(viaRunTx(vms, contracts.loop, 50)).rejects.toThrow('execution aborted (timeout = 0.05s)')
  await expect(viaRunTx(vms, contracts.caller, 50)).rejects.toThrow(ExecutionTimeoutError)
  expect((await viaRunTx(vms, contracts.stop)).execResult.exceptionError).toBeUndefined()
})

test('on runTx’s path too: timers fire while a long call runs', async () => {
  let fired = 0
  const timer = setInterval(() => fired++, 1)
  const result = await viaRunTx(new VmPool(chain.vm), contracts.loop)
  clearInterval(timer)
  expect(result.execResult.exceptionError?.error).toBe('out of gas')
  expect(fired).toBeGreaterThan(0)
})

test('an estimate past its time stops searching: no run starts after the caller was told it timed out', async () => {
  const header = chain.store.latest().header
  const calls = new CallEvms(chain.vm)
  const vms = new VmPool(chain.vm)
  let started = 0
  const runOnce = calls.runOnce.bind(calls)
  calls.runOnce = (...args) => {
    started++
    return runOnce(...args)
  }
  const run = vms.run.bind(vms)
  vms.run = (...args) => {
    started++
    return run(...args)
  }
  const env = { vm: chain.vm, vms, stateRoot: header.stateRoot, header, view: chain.readerAt(header.stateRoot), calls }
  // every run spends nearly its 6M gas, ~15 runs to the answer: the search takes seconds, its budget 800 ms
  await expect(estimateGas(env, { to: contracts.spender, gas: 6_000_000n }, 800)).rejects.toThrow(ExecutionTimeoutError)
  expect(started).toBeGreaterThan(1) // the run at the cap finished: the search was under way
  const atTimeout = started
  await new Promise((resolve) => setTimeout(resolve, 1500))
  expect(started).toBeLessThanOrEqual(atTimeout + 1)
})
