/**
 * The time budget on @ethereumjs's own loop: runTx's calls (eth_estimateGas's and eth_call's slow path,
 * eth_simulateV1, debug_trace*) run the shipped Interpreter, whose loop awaits every step and never looks at
 * a clock. This wraps its runStep for every EVM, the one process-wide patch: an EVM under withBudget
 * (execution/budget.ts) counts its steps and every CLOCK_EVERY + 1 of them gives the event loop a turn or
 * stops the call at its deadline; any other EVM (the sequencer's) pays a WeakMap lookup per step. The call
 * path's frames keep their own time (sync-steps.ts).
 */
import { budgetOf, CLOCK_EVERY, keepTime } from '../execution/budget.js'
import { hookRuns } from './hook-runs.js'
import type { InterpreterClass } from './internals.js'

const hooks = new WeakSet<object>()

export function countBudgetSteps(Interpreter: InterpreterClass): void {
  const prototype = Interpreter.prototype
  const runStep = prototype.runStep
  prototype.runStep = function (entry) {
    const budget = budgetOf(this._evm)
    if (budget !== undefined && (++budget.steps & CLOCK_EVERY) === 0) {
      hookRuns.budgetSteps++
      return keepTime(budget).then(() => runStep.call(this, entry))
    }
    return runStep.call(this, entry)
  }
  hooks.add(prototype.runStep)
}

/** Whether `method` is this file's hook (the shipped Interpreter's runStep is, once installed process-wide). */
export function isBudgetHook(method: unknown): boolean {
  return typeof method === 'function' && hooks.has(method)
}
