/**
 * eth_createAccessList as geth: run the request with the access list found so far until a run touches
 * nothing new, then answer that list and the gas the last run used; a failing execution is reported in
 * `error` beside them (the list of what it touched is still the answer). Sender, recipient, coinbase and
 * precompiles are warm anyway and stay out of the list unless their storage was touched.
 */
import { hexToBytes } from '@ethereumjs/util'
import type { AccessListResult } from '../../capabilities/execute.js'
import type { CallRequest, StateOverrideSpec } from '../../domain/call-request.js'
import { ACCESS_LIST_MAX_ROUNDS } from '../../limits.js'
import { callGasLimit } from './call.js'
import { withTimeout } from './time-limit.js'
import { gethExecutionError } from './revert.js'
import { callTimeoutOf, execute, type ExecutionEnv } from './run.js'

type AccessList = NonNullable<CallRequest['accessList']>

/** `overrides`: geth's third parameter, applied to the state of every run. */
export function createAccessList(
  env: ExecutionEnv,
  request: CallRequest,
  overrides?: StateOverrideSpec,
): Promise<AccessListResult> {
  return withTimeout(search(env, request, overrides), callTimeoutOf(env))
}

async function search(
  env: ExecutionEnv,
  request: CallRequest,
  overrides: StateOverrideSpec | undefined,
): Promise<AccessListResult> {
  const gasLimit = callGasLimit(env, request)
  let list: AccessList = request.accessList ?? []
  for (let round = 1; ; round++) {
    const result = await execute(env, { ...request, accessList: list }, gasLimit, overrides, { reportAccessList: true })
    const found: AccessList = (result.accessList ?? []).map((entry) => ({
      address: hexToBytes(entry.address as `0x${string}`),
      storageKeys: entry.storageKeys.map((key) => hexToBytes(key as `0x${string}`)),
    }))
    if (same(found, list) || round === ACCESS_LIST_MAX_ROUNDS) {
      const error = result.execResult.exceptionError
      return { accessList: found, gasUsed: result.totalGasSpent, error: error && gethExecutionError(error.error) }
    }
    list = found
  }
}

function same(a: AccessList, b: AccessList): boolean {
  const key = (list: AccessList) =>
    list
      .map(
        (e) =>
          `${Buffer.from(e.address).toString('hex')}:${e.storageKeys.map((k) => Buffer.from(k).toString('hex')).join(',')}`,
      )
      .sort()
      .join(';')
  return key(a) === key(b)
}
