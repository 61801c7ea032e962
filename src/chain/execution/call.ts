/**
 * eth_call: run an unsigned transaction on a block's state and return its output; a revert is geth's
 * code 3 with the revert data. Gas defaults to the block gas limit and is capped at RPC_GAS_CAP.
 */
import { CALL_TIMEOUT_MS, RPC_GAS_CAP } from '../../limits.js'
import { ExecutionTimeoutError } from '../../errors.js'
import { assertSucceeded } from './revert.js'
import type { CallRequest, StateOverrideSpec } from '../../domain/call-request.js'
import { execute, type ExecutionEnv } from './run.js'

export function callGasLimit(env: ExecutionEnv, request: CallRequest): bigint {
  const requested = request.gas ?? env.header.gasLimit
  return requested > RPC_GAS_CAP ? RPC_GAS_CAP : requested
}

/** Races a promise against a time limit. The EVM cannot be interrupted, but the caller gets its answer. */
export async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ExecutionTimeoutError(ms)), ms)
  })
  try {
    return await Promise.race([work, timeout])
  } finally {
    clearTimeout(timer)
  }
}

export async function call(
  env: ExecutionEnv,
  request: CallRequest,
  overrides?: StateOverrideSpec,
): Promise<Uint8Array> {
  const gasLimit = callGasLimit(env, request)
  const fast = overrides || !env.calls || !env.view ? undefined : env.calls.run(env.view, env.header, request, gasLimit)
  const result = await withTimeout(
    fast?.then((r) => r ?? execute(env, request, gasLimit)) ?? execute(env, request, gasLimit, overrides),
    CALL_TIMEOUT_MS,
  )
  assertSucceeded(result)
  return result.execResult.returnValue
}
