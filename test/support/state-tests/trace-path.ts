/**
 * The trace path: each case's transaction traced on its pre-state by the tracers debug_trace* runs with a
 * block's state (callTracer with its logs, prestateTracer without and with diffMode), once as the reference
 * path runs them (@ethereumjs's loop and its step and message events) and once on a VM whose outermost
 * frames run on the interpreter (patchTraceEvm, as trace.ts and trace-call.ts make theirs). The JSON outputs
 * must be the same, byte for byte, and a tracer that fails on the reference path (a prestateTracer step
 * with an empty stack, an account word wider than an address) must fail the same way.
 */
import type { EVM } from '@ethereumjs/evm'
import { createVM, runTx, type VM } from '@ethereumjs/vm'
import { throwawayVmCommon } from '../../../src/evm/chain-common.js'
import { attachCallTracer } from '../../../src/evm/execution/trace/call-tracer.js'
import { attachPrestateTracer } from '../../../src/evm/execution/trace/prestate-tracer.js'
import { patchTraceEvm } from '../../../src/evm/patches/install.js'
import type { Case } from './fixtures.js'
import { blockOf, preState, stateTestCommon, testBlockHashes, txOf } from './prestate.js'
import type { Budget } from './run-tx.js'

type Traced = { vm: VM; run: () => Promise<bigint> }

/** The case's transaction on a VM of its pre-state (its frames on the interpreter when `interpreted`). */
async function traced(c: Case, budget: Budget, interpreted: boolean): Promise<Traced> {
  const { state } = await preState(c.test.pre, stateTestCommon(c.fork))
  const vm = await createVM({
    common: throwawayVmCommon(state.common),
    stateManager: state,
    blockchain: testBlockHashes,
  })
  if (interpreted && !patchTraceEvm(vm.evm as EVM)) throw new Error('the interpreter does not fit the fork')
  const tx = txOf(c)
  const block = blockOf(c.test, vm.common)
  return { vm, run: async () => (await budget(vm.evm as EVM, () => runTx(vm, { tx, block }))).totalGasSpent }
}

/** A tracer's JSON output, or the error it ended with (the reference path's own failures must be ours too). */
async function outcome(work: () => Promise<unknown>): Promise<string> {
  try {
    return JSON.stringify(await work())
  } catch (err) {
    return `threw ${(err as Error).message}`
  }
}

/** The tracers' outputs of the case's transaction; undefined when it is refused, as the fixture expects. */
async function traces(c: Case, budget: Budget, interpreted: boolean): Promise<string[] | undefined> {
  let tx: ReturnType<typeof txOf>
  let calls: Traced
  try {
    tx = txOf(c)
    calls = await traced(c, budget, interpreted)
  } catch (err) {
    if (c.expected.expectException) return undefined
    throw err
  }
  const callTracer = attachCallTracer(calls.vm.evm as EVM, tx, { withLog: true })
  let call: string
  try {
    const gas = await calls.run()
    call = await outcome(async () => callTracer.result(gas))
  } catch (err) {
    if (c.expected.expectException) return undefined
    call = `threw ${(err as Error).message}`
  } finally {
    callTracer.detach()
  }
  const touches = await traced(c, budget, interpreted)
  const prestate = attachPrestateTracer(touches.vm.evm as EVM, tx.getSenderAddress(), blockOf(c.test).header.coinbase)
  if (tx.to) prestate.touch(tx.to.toString())
  const ran = await outcome(() => touches.run().finally(() => prestate.detach()))
  if (ran.startsWith('threw')) return [call, ran, ran]
  const { state: pre } = await preState(c.test.pre, stateTestCommon(c.fork))
  const post = touches.vm.stateManager
  return [
    call,
    await outcome(() => prestate.result(pre, post, false)),
    await outcome(() => prestate.result(pre, post, true)),
  ]
}

const NAMES = ['callTracer', 'prestateTracer', 'prestateTracer diffMode']

/** Where the interpreted traces differ from the reference's, or undefined. */
export async function traceDifference(c: Case, budget: Budget): Promise<string | undefined> {
  const reference = await traces(c, budget, false)
  const ours = await traces(c, budget, true)
  if (reference === undefined || ours === undefined)
    return reference === ours
      ? undefined
      : `refused on ${reference === undefined ? 'the reference' : 'the interpreter'} only`
  const i = reference.findIndex((r, k) => r !== ours[k])
  return i < 0 ? undefined : `${NAMES[i]}: ${firstDifference(reference[i]!, ours[i]!)}`
}

function firstDifference(a: string, b: string): string {
  let i = 0
  while (i < a.length && a[i] === b[i]) i++
  return `reference …${a.slice(Math.max(0, i - 60), i + 60)}… interpreter …${b.slice(Math.max(0, i - 60), i + 60)}…`
}
