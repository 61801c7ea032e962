/**
 * eth_call: run an unsigned transaction on a block's state and return its output; a revert is geth's
 * code 3 with the revert data. Gas defaults to the block gas limit and is capped at RPC_GAS_CAP.
 */
import { RPC_GAS_CAP } from '../../limits.js'
import { assertSucceeded } from './revert.js'
import type { CallRequest, StateOverrideSpec } from '../../domain/call-request.js'
import { callTimeoutOf, execute, type ExecutionEnv } from './run.js'
import { commonAt } from '../chain-common.js'
import type { CallEvms } from './fast-call.js'
import type { CallAnswer } from './call-memo.js'
import type { Eventually } from '../../capabilities/eventually.js'
import type { StateSource } from './call-state.js'
import { withTimeout } from './time-limit.js'

/** EIP-7825 (Osaka): no transaction may carry more gas; geth caps calls and estimates there too. */
const MAX_TX_GAS = 1n << 24n

export function callGasLimit(env: ExecutionEnv, request: CallRequest): bigint {
  const requested = request.gas ?? env.header.gasLimit
  const cap =
    commonAt(env.vm.common, env.header).isActivatedEIP(7825) && MAX_TX_GAS < RPC_GAS_CAP ? MAX_TX_GAS : RPC_GAS_CAP
  return requested > cap ? cap : requested
}

/**
 * The env's plain-call EVMs and read view, when a call may take that path: they run under the chain's fork, so
 * an imported chain's older blocks take runTx's.
 */
export function fastPath(env: ExecutionEnv): { calls: CallEvms; view: StateSource } | undefined {
  const { calls, view } = env
  // a moved block number needs its own BLOCKHASH view, which the plain-call EVMs do not take
  if (env.overridden?.blockHashes) return undefined
  return calls && view && commonAt(env.vm.common, env.header) === env.vm.common ? { calls, view } : undefined
}

/**
 * The call's output; at once when the plain-call path answered without a promise (kept, or its reads all in
 * memory), so no time limit was needed. A revert throws (or rejects with) geth's code 3.
 */
export function call(env: ExecutionEnv, request: CallRequest, overrides?: StateOverrideSpec): Eventually<Uint8Array> {
  const gasLimit = callGasLimit(env, request)
  const path = overrides ? undefined : fastPath(env)
  // an overridden header is this request's own: its answer is not memoised
  const fast = env.overridden
    ? path?.calls.runOnce(path.view, env.header, request, gasLimit)
    : path?.calls.run(path.view, env.header, request, gasLimit)
  if (fast instanceof Promise)
    return withTimeout(
      fast.then((r) => r ?? execute(env, request, gasLimit)),
      callTimeoutOf(env),
    ).then(output)
  if (fast !== undefined) return output(fast)
  return withTimeout(execute(env, request, gasLimit, overrides), callTimeoutOf(env)).then(output)
}

function output(result: CallAnswer): Uint8Array {
  assertSucceeded(result)
  return result.execResult.returnValue
}
