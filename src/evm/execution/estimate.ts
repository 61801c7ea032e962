/**
 * eth_estimateGas as geth's gasestimator: try the cap first (a revert there is the call's revert error),
 * shortcut a plain transfer to 21000, try an optimistic 64/63 of the gas used, then bisect. geth stops
 * bisecting within 1.5 %; we go on to the exact least gas with which the call succeeds (a few more runs).
 */
import {
  ExecutionTimeoutError,
  GasRequiredExceedsAllowanceError,
  InsufficientFundsForTransferError,
} from '../../errors.js'
import { stateAt } from '../state-views.js'
import type { StateSource } from './call-state.js'
import { Address, bytesToHex } from '@ethereumjs/util'
import { callGasLimit, fastPath } from './call.js'
import type { RunTxResult } from '@ethereumjs/vm'
import { withTimeout } from './time-limit.js'
import { assertSucceeded } from './revert.js'
import { paysFees, type CallRequest, type StateOverrideSpec } from '../../domain/call-request.js'
import { callTimeoutOf, execute, type ExecutionEnv } from './run.js'
import { deadlineAfter } from './budget.js'

const TX_GAS = 21_000n
const CALL_STIPEND = 2_300n

/**
 * Every run of the search shares one deadline, `timeoutMs` from now (0: none; default the env's): a run under way when it passes stops,
 * and no run starts after it, so a search the caller was told had timed out does not go on. State overrides
 * apply to every run and to what the search reads first (the sender's balance, the recipient's code).
 */
export async function estimateGas(
  env: ExecutionEnv,
  request: CallRequest,
  timeoutMs = callTimeoutOf(env),
  overrides?: StateOverrideSpec,
): Promise<bigint> {
  const runs = { timeoutMs, deadline: deadlineAfter(timeoutMs), overrides }
  return withTimeout(search(env, request, runs), timeoutMs)
}

/** The search's time (what its runs tell withBudget) and the state overrides each run applies. */
type Runs = { timeoutMs: number; deadline: number; overrides?: StateOverrideSpec }

async function search(env: ExecutionEnv, request: CallRequest, runs: Runs): Promise<bigint> {
  const override = (address: Uint8Array) => runs.overrides?.get(bytesToHex(address))
  let hi = callGasLimit(env, request)
  if (paysFees(request) && request.from) {
    // the sender can only buy so much gas: (balance - value) / fee cap
    const feeCap = request.maxFeePerGas ?? request.gasPrice ?? 0n
    if (feeCap > 0n) {
      const balance =
        override(request.from)?.balance ?? (await stateOf(env).getAccount(new Address(request.from)))?.balance ?? 0n
      // geth: a value the balance does not exceed (a zero balance, even sending nothing) cannot be paid for
      if ((request.value ?? 0n) >= balance) throw new InsufficientFundsForTransferError()
      const available = balance - (request.value ?? 0n)
      const allowance = available / feeCap
      if (allowance < hi) hi = allowance
    }
  }
  // a plain value transfer to an account without code costs exactly 21000
  if (request.to && (request.data?.length ?? 0) === 0) {
    const code = override(request.to)?.code ?? (await stateOf(env).getCode(new Address(request.to)))
    if (code.length === 0 && (request.authorizationList?.length ?? 0) === 0) {
      const result = await attempt(env, request, TX_GAS, runs)
      if (!result.execResult.exceptionError) return TX_GAS
    }
  }
  const atCap = await attempt(env, request, hi, runs)
  if (atCap.execResult.exceptionError) {
    if (atCap.execResult.exceptionError.error === 'revert') assertSucceeded(atCap)
    throw new GasRequiredExceedsAllowanceError(hi)
  }
  let lo = atCap.totalGasSpent - 1n
  const refund = atCap.gasRefund ?? 0n
  const optimistic = ((atCap.totalGasSpent + refund + CALL_STIPEND) * 64n) / 63n
  if (optimistic < hi) {
    if (await succeeds(env, request, optimistic, runs)) hi = optimistic
    else lo = optimistic
  }
  while (lo + 1n < hi) {
    let mid = (hi + lo) / 2n
    if (mid > lo * 2n) mid = lo * 2n // geth: most estimates are near the low end
    if (await succeeds(env, request, mid, runs)) hi = mid
    else lo = mid
  }
  return hi
}

/** Where the search reads the state: the chain's shared view of the root (its caches) when the env has one. */
function stateOf(env: ExecutionEnv): Pick<StateSource, 'getAccount' | 'getCode'> {
  return env.readState?.() ?? env.view ?? stateAt(env.vm, env.stateRoot)
}

/** What the search reads of a run: its result, the gas a transaction would spend and its refund. */
type Attempt = Pick<RunTxResult, 'execResult' | 'totalGasSpent' | 'gasRefund'>

/** One run of the search with `gas`: on the plain-call path when it can run there (a search runs ~20), else runTx. */
async function attempt(env: ExecutionEnv, request: CallRequest, gas: bigint, runs: Runs): Promise<Attempt> {
  const path = runs.overrides ? undefined : fastPath(env)
  const fast = await path?.calls.runOnce(path.view, env.header, request, gas, runs.deadline)
  const spent = fast && path!.calls.spent(request, fast)
  if (spent) return { execResult: fast.execResult, ...spent }
  return execute(env, request, gas, runs.overrides, runs)
}

/** Whether the call succeeds with `gas`. */
async function succeeds(env: ExecutionEnv, request: CallRequest, gas: bigint, runs: Runs): Promise<boolean> {
  try {
    return !(await attempt(env, request, gas, runs)).execResult.exceptionError
  } catch (err) {
    if (err instanceof ExecutionTimeoutError) throw err
    return false // too little gas to even start (intrinsic gas)
  }
}
