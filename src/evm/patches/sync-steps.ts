/**
 * Plain opcodes without an async function each. @ethereumjs's interpreter runs every opcode through the
 * async `runStep`, so a view call of a few hundred opcodes allocates as many promises and async frames:
 * most of its garbage, and garbage collection was 40 % of an eth_call's CPU. An opcode whose gas is static,
 * or computed without a state read (sync-gas.ts: memory, per-word charges, SLOAD's warm set), needs none of
 * that: `step` runs it as runStep would (charge the fee, advance the counter, run the handler) and returns
 * nothing for `run` to await, or, for a handler that reads state, that handler's promise alone. Everything
 * else, and anything runStep would do more for (step listeners, debug logging, the profiler, Verkle
 * code-chunk gas, EIP-7928's pending call failure), takes the shipped runStep.
 *
 * The interpreter's loop awaits every step, and an await of nothing still parks the frame for a microtask
 * turn: a turn per opcode. This interpreter runs a frame of legacy code in a loop that awaits only the steps
 * that return a promise, and otherwise does what the shipped loop does (jump analysis at the first jump,
 * a STOP thrown by a handler ends the frame, any other EVM error is the frame's error). EOF code, a start
 * at another pc, the profiler and step listeners take the shipped loop. Under a time budget (withBudget) the
 * loop looks at the clock every CLOCK_EVERY + 1 steps.
 *
 * It is a subclass of the shipped Interpreter, made by installEvmPatches; only the call path's EVMs make
 * frames of it (lean-frames.ts), and of those only the ones `syncSteps` names run this loop: every other
 * EVM, the sequencer's included, runs the shipped class untouched.
 */
import { type EVM, EVMError } from '@ethereumjs/evm'
import { budgetOf, CLOCK_EVERY, keepTime } from '../execution/budget.js'
import { hookRuns } from './hook-runs.js'
import type { Internals, InterpreterClass, OpcodeEntry } from './internals.js'
import { withJumpCache } from './jump-analysis.js'
import { syncGasTable } from './sync-gas.js'

const fast = new WeakSet<EVM>()
const EOF_FORMAT = 0xef
const JUMP = 0x56
const JUMPI = 0x57
const RJUMP_LEGACY = 0x5e // the shipped loop analyses jumps at this byte too
const isEvmError = (e: unknown): e is EVMError =>
  typeof e === 'object' && e !== null && (e as { errorType?: unknown }).errorType === 'EVMError'

/** The class of the call path's frames: the shipped Interpreter with this loop and the jump cache. */
export function callPathInterpreter(internals: Internals): InterpreterClass {
  // the shipped runStep, whatever the process-wide budget hook later puts on the prototype: this loop keeps
  // its own time
  const shippedStep = internals.Interpreter.prototype.runStep
  const syncGasOf = syncGasTable(internals)

  return class CallPathInterpreter extends withJumpCache(internals.Interpreter) {
    override async run(code: Uint8Array, opts: { pc?: number } = {}) {
      if (
        !fast.has(this._evm) ||
        code[0] === EOF_FORMAT ||
        (opts.pc ?? 0) !== 0 ||
        this['profilerOpts']?.enabled === true ||
        this._evm.events.listenerCount('step') > 0
      )
        return super.run(code, opts)
      hookRuns.awaitFreeLoop++
      const state = this._runState
      state.code = code
      const budget = budgetOf(this._evm)
      let steps = 0
      let sync = 0
      let cached: OpcodeEntry[] | undefined
      let err: EVMError | undefined
      while (state.programCounter < code.length) {
        if (budget !== undefined && (++steps & CLOCK_EVERY) === 0) await keepTime(budget)
        const pc = state.programCounter
        let entry: OpcodeEntry | undefined
        let op: number
        if (cached === undefined) {
          op = code[pc]!
          if (op === JUMP || op === JUMPI || op === RJUMP_LEGACY) {
            const { jumps, pushes, opcodesCached } = this._getValidJumpDestinations(code)
            state.validJumps = jumps
            state.cachedPushes = pushes
            state.shouldDoJumpAnalysis = false
            cached = opcodesCached
          }
        } else {
          entry = cached[pc]!
          op = entry.opcodeInfo.code
        }
        state.opCode = op
        try {
          const pending = this.step(entry)
          if (pending !== undefined) await pending
          else sync++
        } catch (e) {
          if (!isEvmError(e)) throw e
          if (e.error !== EVMError.errorMessages.STOP) err = e
          break
        }
      }
      hookRuns.syncSteps += sync
      if (err === undefined && state.eip8037BurnLeftoverAfterCreateHaltOntoAlive === true && state.gasLeft > 0n) {
        state.gasLeft = 0n
        err = new EVMError(EVMError.errorMessages.OUT_OF_GAS)
      }
      return { runState: state, exceptionError: err }
    }

    /** One opcode as runStep runs it, without a promise unless its handler reads state. */
    step(entry?: OpcodeEntry): Promise<void> | undefined {
      const state = this._runState
      const op = entry ?? this.lookupOpInfo(state.opCode)
      const info = op.opcodeInfo
      if (info.isInvalid || state.eip7928PostTargetCallOog !== undefined) return shippedStep.call(this, op)
      let fee = info.feeBigInt
      if (info.dynamicGas) {
        const gas = syncGasOf(info.code, op.gasHandler)
        if (!gas) return shippedStep.call(this, op)
        hookRuns.syncGas++
        fee += gas(state, this.common)
      }
      this.useGas(fee, info)
      state.programCounter++
      // an async handler (a state read) is the one promise of its step, for the loop to await
      const done = op.opHandler(state, this.common)
      return info.isAsync ? (done as Promise<void>) : undefined
    }
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
