import { getContractAddress } from 'viem'
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest'
import { chainWithPrograms } from '../../../test/support/call-paths.js'
import { devAccount } from '../../../test/support/dev-keys.js'
import { steppedClock } from '../../../test/support/stepped-clock.js'
import { ExecutionTimeoutError } from '../../errors.js'
import type { Chain } from '../../chain/chain.js'
import type { StateSource } from './call-state.js'
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

/**
 * The budgets under test run out by the clock the test moves (10 ms per look, a look every 1024 steps: a
 * 50 ms budget lasts ~5000 steps, the loop runs millions), never by how fast the machine is. The tests of
 * timers firing keep the real clock, with a budget they never reach (they are about the event loop).
 */
let clock: ReturnType<typeof steppedClock> | undefined
afterEach(() => clock?.restore())
const NEVER_MS = 3_600_000

const runOn = (evms: CallEvms, to: Uint8Array, gas = 16_000_000n) => {
  const header = chain.store.latest().header
  return evms.run(chain.readerAt(header.stateRoot), header, { to }, gas)
}
/** A loop of this much gas runs ~500 000 steps: hundreds of 5 ms slices on any machine we run on. */
const LONG_CALL_GAS = 2_000_000n

test('a call past its time budget stops with geth’s timeout error, one frame down too, and its EVM takes the next call', async () => {
  clock = steppedClock(10)
  const evms = new CallEvms(chain.vm, 50)
  // run to its end, the loop would answer "out of gas"; stopped, it rejects
  await expect(runOn(evms, contracts.loop)).rejects.toThrow(ExecutionTimeoutError)
  await expect(runOn(evms, contracts.caller)).rejects.toThrow('execution aborted (timeout = 50ms)')
  const next = await runOn(evms, contracts.stop)
  expect(next?.execResult.exceptionError).toBeUndefined()
})

test('the event loop turns while a long call runs: timers fire before it ends', async () => {
  let fired = 0
  const timer = setInterval(() => fired++, 1)
  const result = await runOn(new CallEvms(chain.vm, NEVER_MS), contracts.loop, LONG_CALL_GAS)
  clearInterval(timer)
  expect(result?.execResult.exceptionError?.error).toBe('out of gas')
  expect(fired).toBeGreaterThan(0)
})

/** runTx's path (a value sent takes it): @ethereumjs's own loop, whose steps the budget counts. */
const viaRunTx = (vms: VmPool, to: Uint8Array, timeoutMs?: number, gas = 16_000_000n) => {
  const header = chain.store.latest().header
  const env = { vm: chain.vm, vms, stateRoot: header.stateRoot, header }
  const request = { from: chain.accounts[0].address, to, value: 1n }
  return execute(env, request, gas, undefined, { timeoutMs })
}

test('on runTx’s path too: a call past its budget stops with the timeout error and the next call runs', async () => {
  clock = steppedClock(10)
  const vms = new VmPool(chain.vm)
  await expect(viaRunTx(vms, contracts.loop, 50)).rejects.toThrow('execution aborted (timeout = 50ms)')
  await expect(viaRunTx(vms, contracts.caller, 50)).rejects.toThrow(ExecutionTimeoutError)
  expect((await viaRunTx(vms, contracts.stop)).execResult.exceptionError).toBeUndefined()
})

test('on runTx’s path too: timers fire while a long call runs', async () => {
  let fired = 0
  const timer = setInterval(() => fired++, 1)
  const result = await viaRunTx(new VmPool(chain.vm), contracts.loop, NEVER_MS, LONG_CALL_GAS)
  clearInterval(timer)
  expect(result.execResult.exceptionError?.error).toBe('out of gas')
  expect(fired).toBeGreaterThan(0)
})

/**
 * An estimate over the spender (every run spends nearly its 1M gas, ~20 runs to the answer) with its runs
 * counted, under a clock that stands still (its budget never runs out by itself): `onRun(n, run)` sees the
 * n-th run start and the promise of its result.
 */
function countedEstimate(onRun: (n: number, run: Promise<unknown>) => void) {
  clock = steppedClock(0)
  const header = chain.store.latest().header
  const calls = new CallEvms(chain.vm)
  const vms = new VmPool(chain.vm)
  const runs = { started: 0 }
  const counted = <T>(run: () => Promise<T>) => {
    const result = run()
    onRun(++runs.started, result)
    return result
  }
  const runOnce = calls.runOnce.bind(calls)
  calls.runOnce = (...args) => {
    const ran = runOnce(...args)
    onRun(++runs.started, Promise.resolve(ran))
    return ran
  }
  const run = vms.run.bind(vms)
  vms.run = (...args) => counted(() => run(...args))
  // a view that reads through promises (as a data directory's may): a run is under way, past its start, when
  // onRun sees it (on the in-memory view a run whose reads are all at hand ends before its promise is returned)
  const reader = chain.readerAt(header.stateRoot)
  const view: StateSource = {
    getAccount: (address) => reader.getAccount(address),
    getCode: (address) => reader.getCode(address),
    getStorage: (address, key) => reader.getStorage(address, key),
  }
  const env = { vm: chain.vm, vms, stateRoot: header.stateRoot, header, view, calls }
  const estimate = estimateGas(env, { to: contracts.spender, gas: 1_000_000n }, 800)
  return { estimate, runs }
}

test('an estimate whose time passes during a run stops that run and the search: a timeout, not an answer', async () => {
  // the third run is under way (past its start) when the clock passes the estimate's 800 ms
  const { estimate, runs } = countedEstimate((n) => n === 3 && clock?.jump(1_000))
  await expect(estimate).rejects.toThrow(ExecutionTimeoutError)
  expect(runs.started).toBe(3)
})

test('an estimate whose time passes between two runs starts no run after it', async () => {
  const { estimate, runs } = countedEstimate((n, run) => n === 2 && void run.then(() => clock?.jump(1_000)))
  await expect(estimate).rejects.toThrow(ExecutionTimeoutError)
  // the third was asked for, and refused before it ran a step
  expect(runs.started).toBe(3)
})
