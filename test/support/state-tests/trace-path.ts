/**
 * The trace path: each case's transaction traced on its pre-state by the tracers debug_trace* runs with a
 * block's state (callTracer with its logs, prestateTracer without and with diffMode), once as the reference
 * path runs them (@ethereumjs's loop and its step and message events) and once on a VM whose outermost
 * frames run on the interpreter (patchTraceEvm, as trace.ts and trace-call.ts make theirs). The JSON outputs
 * must be the same, byte for byte.
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

/** The tracers' JSON outputs of the case's transaction; undefined when runTx refuses it, as the fixture expects. */
async function traces(c: Case, budget: Budget, interpreted: boolean): Promise<string[] | undefined> {
  const tx = txOf(c)
  const calls = await traced(c, budget, interpreted)
  const callTracer = attachCallTracer(calls.vm.evm as EVM, tx, { withLog: true })
  let gas: bigint
  try {
    gas = await calls.run()
  } catch (err) {
    if (c.expected.expectException) return undefined
    throw err
  } finally {
    callTracer.detach()
  }
  const call = JSON.stringify(callTracer.result(gas))
  const touches = await traced(c, budget, interpreted)
  const prestateTracer = attachPrestateTracer(
    touches.vm.evm as EVM,
    tx.getSenderAddress(),
    blockOf(c.test).header.coinbase,
  )
  if (tx.to) prestateTracer.touch(tx.to.toString())
  await touches.run().finally(() => prestateTracer.detach())
  const { state: pre } = await preState(c.test.pre, stateTestCommon(c.fork))
  const post = touches.vm.stateManager
  return [
    call,
    JSON.stringify(await prestateTracer.result(pre, post, false)),
    JSON.stringify(await prestateTracer.result(pre, post, true)),
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
