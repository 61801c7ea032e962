/**
 * Plain opcodes without an async function each. @ethereumjs's interpreter runs every opcode through the
 * async `runStep`, so a view call of a few hundred opcodes allocates as many promises and async frames:
 * most of its garbage, and garbage collection was 40 % of an eth_call's CPU. An opcode whose gas is static
 * and whose handler is synchronous (arithmetic, stack, jumps, PUSH/DUP/SWAP, most environment reads) needs
 * none of that: this runs it as runStep would (charge the static fee, advance the counter, run the handler)
 * and returns nothing for `run` to await. Everything else, and anything runStep would do more for (step
 * listeners, debug logging, the profiler, Verkle code-chunk gas, EIP-7928's pending call failure), takes
 * the shipped runStep. Only EVMs `syncSteps` names get this (the call path's), never the sequencer's.
 */
import type { EVM } from '@ethereumjs/evm'
import { interpreterPrototype } from './interpreter-class.js'

interface OpEntry {
  opcodeInfo: { feeBigInt: bigint; dynamicGas: boolean; isAsync: boolean; isInvalid: boolean }
  opHandler: (runState: unknown, common: unknown) => void
}
interface InterpreterLike {
  _evm: EVM
  _runState: { opCode: number; programCounter: number; eip7928PostTargetCallOog?: unknown }
  common: EVM['common']
  lookupOpInfo(op: number): OpEntry
  useGas(amount: bigint, context: unknown): void
}
type RunStep = (this: InterpreterLike, entry?: OpEntry) => Promise<void> | undefined

const fast = new WeakSet<EVM>()

const prototype = interpreterPrototype as { runStep: RunStep } | undefined
const runStep = prototype?.runStep
if (prototype && runStep) {
  prototype.runStep = function (entry) {
    if (!fast.has(this._evm) || this._evm.events.listenerCount('step') > 0) return runStep.call(this, entry)
    const op = entry ?? this.lookupOpInfo(this._runState.opCode)
    const info = op.opcodeInfo
    if (info.dynamicGas || info.isAsync || info.isInvalid || this._runState.eip7928PostTargetCallOog !== undefined)
      return runStep.call(this, op)
    this.useGas(info.feeBigInt, info)
    this._runState.programCounter++
    op.opHandler(this._runState, this.common)
    return undefined
  }
}

/**
 * Runs `evm`'s plain opcodes synchronously. Only for an EVM without step listeners, debug logging or the
 * profiler, on a fork without Verkle code-chunk gas (EIP-6800/7864): the call path's own EVMs.
 */
export function syncSteps(evm: EVM): void {
  if (evm.common.isActivatedEIP(6800) || evm.common.isActivatedEIP(7864) || evm.DEBUG) return
  fast.add(evm)
}
