/**
 * A call's time budget (geth's --rpc.evmtimeout cancels the EVM too). A loop that never waits holds the event
 * loop for the whole call: under a budget the EVM's frames give the event loop a turn every CALL_SLICE_MS, so
 * other requests and the sequencer's flashblocks go on beside a heavy call, and stop the call at its
 * deadline. The frames look at the clock every CLOCK_EVERY + 1 steps: the call path's await-free loop
 * (patches/sync-steps.ts) counts its own, and @ethereumjs's loop (runTx's calls) is counted by a hook on its
 * runStep (patches/budget-steps.ts).
 */
import type { EVMInterface } from '@ethereumjs/evm'
import { ExecutionTimeoutError } from '../../errors.js'
import { CALL_SLICE_MS } from '../../limits.js'
import { type Eventually, withCleanup } from '../../capabilities/eventually.js'

/** A running call's time: when its slice of the event loop ends, and when the call must stop. */
export interface Budget {
  sliceEnd: number
  readonly deadline: number
  readonly timeoutMs: number
  /** Steps @ethereumjs's own loop has run under this budget (the await-free loop counts per frame). */
  steps: number
}

const budgets = new WeakMap<EVMInterface, Budget>()
/** Steps between two looks at the clock (a power of two, less one: a mask). */
export const CLOCK_EVERY = 1023
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

/** When a budget of `timeoutMs` from `now` ends: never for 0 (geth's `--rpc.evmtimeout 0`, no timeout). */
export function deadlineAfter(timeoutMs: number, now = performance.now()): number {
  return timeoutMs === 0 ? Number.POSITIVE_INFINITY : now + timeoutMs
}

/** The budget `evm` runs under now, if any. */
export function budgetOf(evm: EVMInterface): Budget | undefined {
  return budgets.get(evm)
}

/**
 * Runs `work` on `evm` within `timeoutMs` (0: no limit): the EVM's frames yield the event loop every
 * CALL_SLICE_MS and throw ExecutionTimeoutError past the deadline. `deadline` (performance.now() time): one a run shares with
 * the others of its request (an estimate's trials), instead of `timeoutMs` from now. A work that ends without a
 * promise (a call whose reads are all in memory) is answered without one; its failures are always a rejection.
 */
export function withBudget<T>(
  evm: EVMInterface,
  timeoutMs: number,
  work: () => Eventually<T>,
  deadline?: number,
): Eventually<T> {
  const now = performance.now()
  if (deadline !== undefined && now > deadline) return Promise.reject(new ExecutionTimeoutError(timeoutMs))
  budgets.set(evm, {
    sliceEnd: now + CALL_SLICE_MS,
    deadline: deadline ?? deadlineAfter(timeoutMs, now),
    timeoutMs,
    steps: 0,
  })
  return withCleanup(work, () => budgets.delete(evm))
}

/**
 * Every CLOCK_EVERY + 1 steps: a turn for the event loop when the slice is over; the call's end past its
 * deadline (not an EVM error: it ends the whole call, through every frame, not one frame alone).
 */
export async function keepTime(budget: Budget): Promise<void> {
  const now = performance.now()
  if (now > budget.deadline) throw new ExecutionTimeoutError(budget.timeoutMs)
  if (now < budget.sliceEnd) return
  await nextTurn()
  if (performance.now() > budget.deadline) throw new ExecutionTimeoutError(budget.timeoutMs)
  budget.sliceEnd = performance.now() + CALL_SLICE_MS
}
