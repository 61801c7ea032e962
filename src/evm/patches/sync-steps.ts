/**
 * Plain opcodes without an async function each. @ethereumjs's interpreter runs every opcode through the
 * async `runStep`, so a view call of a few hundred opcodes allocates as many promises and async frames:
 * most of its garbage, and garbage collection was 40 % of an eth_call's CPU. An opcode whose gas is static,
 * or computed without a state read (sync-gas.ts: memory, per-word charges, SLOAD's warm set), needs none of
 * that: this runs it as runStep would (charge the fee, advance the counter, run the handler) and returns
 * nothing for `run` to await, or, for a handler that reads state, that handler's promise alone. Everything
 * else, and anything runStep would do more for (step listeners, debug logging, the profiler, Verkle
 * code-chunk gas, EIP-7928's pending call failure), takes the shipped runStep. Only EVMs `syncSteps` names
 * get this (the call path's), never the sequencer's.
 *
 * The interpreter's loop awaits every step, and an await of nothing still parks the frame for a microtask
 * turn: a turn per opcode. On the same EVMs a frame of legacy code runs in a loop that awaits only the steps
 * that return a promise, and otherwise does what the shipped loop does (jump analysis at the first jump,
 * a STOP thrown by a handler ends the frame, any other EVM error is the frame's error). EOF code, a start
 * at another pc, the profiler and step listeners take the shipped loop.
 *
 * A loop that never waits holds the event loop for the whole call. Under a time budget (`withBudget`) the
 * loop gives the event loop a turn every CALL_SLICE_MS, so other requests and the sequencer's flashblocks go
 * on beside a heavy call, and stops the call at its deadline (geth's --rpc.evmtimeout cancels the EVM too).
 */
import { type EVM, EVMError, type EVMInterface } from '@ethereumjs/evm'
import { ExecutionTimeoutError } from '../../errors.js'
import { CALL_SLICE_MS } from '../../limits.js'
import { interpreterPrototype } from './evm-internals.js'
import { syncGasOf } from './sync-gas.js'

interface OpEntry {
  opcodeInfo: { code: number; feeBigInt: bigint; dynamicGas: boolean; isAsync: boolean; isInvalid: boolean }
  opHandler: (runState: unknown, common: unknown) => void | Promise<void>
  gasHandler?: unknown
}
interface RunState {
  opCode: number
  programCounter: number
  eip7928PostTargetCallOog?: unknown
  code: Uint8Array
  validJumps: Uint8Array
  cachedPushes: unknown
  shouldDoJumpAnalysis: boolean
  gasLeft: bigint
  eip8037BurnLeftoverAfterCreateHaltOntoAlive?: boolean
}
interface InterpreterLike {
  _evm: EVM
  _runState: RunState
  common: EVM['common']
  profilerOpts?: { enabled?: boolean }
  lookupOpInfo(op: number): OpEntry
  useGas(amount: bigint, context: unknown): void
  runStep(entry?: OpEntry): Promise<void> | undefined
  _getValidJumpDestinations(code: Uint8Array): { jumps: Uint8Array; pushes: unknown; opcodesCached: OpEntry[] }
}
type RunStep = (this: InterpreterLike, entry?: OpEntry) => Promise<void> | undefined
type FrameEnd = { runState: RunState; exceptionError?: EVMError }
type Run = (this: InterpreterLike, code: Uint8Array, opts?: { pc?: number }) => Promise<FrameEnd>

const fast = new WeakSet<EVM>()

/** A running call's time: when its slice of the event loop ends, and when the call must stop. */
interface Budget {
  sliceEnd: number
  readonly deadline: number
  readonly timeoutMs: number
  /** Steps @ethereumjs's own loop has run under this budget (the await-free loop counts per frame). */
  steps: number
}
const budgets = new WeakMap<EVMInterface, Budget>()
/** Steps between two looks at the clock (a power of two, less one: a mask). */
const CLOCK_EVERY = 1023
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

/**
 * Runs `work` on `evm` within `timeoutMs`: the EVM's frames yield the event loop every CALL_SLICE_MS and
 * throw ExecutionTimeoutError past the deadline. On either loop: the await-free one above, or @ethereumjs's
 * own (runTx's calls), whose steps this file's runStep counts. `deadline` (performance.now() time): one a
 * run shares with the others of its request (an estimate's trials), instead of `timeoutMs` from now.
 */
export async function withBudget<T>(
  evm: EVMInterface,
  timeoutMs: number,
  work: () => Promise<T>,
  deadline?: number,
): Promise<T> {
  const now = performance.now()
  if (deadline !== undefined && now > deadline) throw new ExecutionTimeoutError(timeoutMs)
  budgets.set(evm, { sliceEnd: now + CALL_SLICE_MS, deadline: deadline ?? now + timeoutMs, timeoutMs, steps: 0 })
  try {
    return await work()
  } finally {
    budgets.delete(evm)
  }
}

/** Every CLOCK_EVERY + 1 steps: a turn for the event loop when the slice is over; the call's end past its deadline. */
async function keepTime(budget: Budget): Promise<void> {
  const now = performance.now()
  if (now > budget.deadline) throw new ExecutionTimeoutError(budget.timeoutMs)
  if (now < budget.sliceEnd) return
  await nextTurn()
  if (performance.now() > budget.deadline) throw new ExecutionTimeoutError(budget.timeoutMs)
  budget.sliceEnd = performance.now() + CALL_SLICE_MS
}

const prototype = interpreterPrototype as { runStep: RunStep; run: Run } | undefined
const runStep = prototype?.runStep
const run = prototype?.run
const EOF_FORMAT = 0xef
const JUMP = 0x56
const JUMPI = 0x57
const RJUMP_LEGACY = 0x5e // the shipped loop analyses jumps at this byte too
const isEvmError = (e: unknown): e is EVMError =>
  typeof e === 'object' && e !== null && (e as { errorType?: unknown }).errorType === 'EVMError'

if (prototype && run) {
  prototype.run = async function (code, opts = {}) {
    if (
      !fast.has(this._evm) ||
      code[0] === EOF_FORMAT ||
      (opts.pc ?? 0) !== 0 ||
      this.profilerOpts?.enabled === true ||
      this._evm.events.listenerCount('step') > 0
    )
      return run.call(this, code, opts)
    const state = this._runState
    state.code = code
    const budget = budgets.get(this._evm)
    let steps = 0
    let cached: OpEntry[] | undefined
    let err: EVMError | undefined
    while (state.programCounter < code.length) {
      // not an EVM error: it ends the whole call, through every frame, not this frame alone
      if (budget !== undefined && (++steps & CLOCK_EVERY) === 0) await keepTime(budget)
      const pc = state.programCounter
      let entry: OpEntry | undefined
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
        const pending = this.runStep(entry)
        if (pending !== undefined) await pending
      } catch (e) {
        if (!isEvmError(e)) throw e
        if (e.error !== EVMError.errorMessages.STOP) err = e
        break
      }
    }
    if (err === undefined && state.eip8037BurnLeftoverAfterCreateHaltOntoAlive === true && state.gasLeft > 0n) {
      state.gasLeft = 0n
      err = new EVMError(EVMError.errorMessages.OUT_OF_GAS)
    }
    return { runState: state, exceptionError: err }
  }
}

if (prototype && runStep) {
  prototype.runStep = function (entry) {
    if (!fast.has(this._evm) || this._evm.events.listenerCount('step') > 0) {
      const budget = budgets.get(this._evm)
      if (budget !== undefined && (++budget.steps & CLOCK_EVERY) === 0)
        return keepTime(budget).then(() => runStep.call(this, entry))
      return runStep.call(this, entry)
    }
    const op = entry ?? this.lookupOpInfo(this._runState.opCode)
    const info = op.opcodeInfo
    if (info.isInvalid || this._runState.eip7928PostTargetCallOog !== undefined) return runStep.call(this, op)
    let fee = info.feeBigInt
    if (info.dynamicGas) {
      const gas = syncGasOf(info.code, op.gasHandler)
      if (!gas) return runStep.call(this, op)
      fee += gas(this._runState as never, this.common as never)
    }
    this.useGas(fee, info)
    this._runState.programCounter++
    // an async handler (a state read) is the one promise of its step, for the loop to await
    const done = op.opHandler(this._runState, this.common)
    return info.isAsync ? (done as Promise<void>) : undefined
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
