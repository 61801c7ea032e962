/**
 * debug_traceCall: the request run as eth_call's runTx path runs it (run.ts: the unsigned transaction, the
 * call's block context, geth's prechecks) on a throw-away VM over the block's state with the state overrides
 * applied, the header already overridden (block-overrides.ts), and the config's tracer attached, as geth's
 * TraceCall. The prestateTracer reads the state before the call from a second copy with the same overrides.
 */
import type { StateManagerInterface } from '@ethereumjs/common'
import type { EVM } from '@ethereumjs/evm'
import { patchTraceEvm } from '../../patches/install.js'
import { Address, bytesToHex } from '@ethereumjs/util'
import { createVM, type VM } from '@ethereumjs/vm'
import type { TraceCallOptions } from '../../../capabilities/execute.js'
import type { CallRequest, StateOverrideSpec } from '../../../domain/call-request.js'
import { commonAt, throwawayVmCommon } from '../../chain-common.js'
import { isolatedStateAt } from '../../state-views.js'
import { callGasLimit } from '../call.js'
import { withTimeout } from '../time-limit.js'
import { type ExecutionEnv, executeOn } from '../run.js'
import { applyStateOverrides } from '../state-overrides.js'
import { attachCallTracer } from './call-tracer.js'
import { attachPrestateTracer } from './prestate-tracer.js'
import { attachStructLogger } from './struct-logger.js'
import { stateBefore, type TraceEnv, traceTimeoutMs } from './trace.js'
import { withBlockOverrides } from '../block-overrides.js'

/** A fresh copy of the state the call runs on, when it is not the env's block's (a `txIndex`'s). */
type StateSource = () => Promise<StateManagerInterface>

/**
 * debug_traceCall on `env`'s block, for both backends: the config's block overrides applied to the header;
 * with `txIndex`, on the state the block's transactions before that one leave, replayed on `replay()` (the
 * block on its parent's state).
 */
export function traceCall(
  env: ExecutionEnv,
  request: CallRequest,
  options: TraceCallOptions,
  replay?: () => TraceEnv,
): Promise<unknown> {
  const ms = traceTimeoutMs(options)
  const index = options.txIndex
  const state: StateSource | undefined =
    index === undefined || !replay ? undefined : () => stateBefore(replay(), index, ms)
  const overridden = withBlockOverrides(env, options.blockOverrides, 'traceCall')
  return withTimeout(run(overridden, request, options, ms, state), ms)
}

async function run(
  env: ExecutionEnv,
  request: CallRequest,
  options: TraceCallOptions,
  ms: number,
  state: StateSource | undefined,
): Promise<unknown> {
  const vm = await callVm(env, options.stateOverrides, state)
  const evm = vm.evm as never
  const execute = () => executeOn(vm, env, request, callGasLimit(env, request), { timeoutMs: ms })
  if (options.tracer === 'callTracer') {
    const tracer = attachCallTracer(evm, request, options.tracerConfig ?? {})
    const result = await execute().finally(() => tracer.detach())
    return tracer.result(result.totalGasSpent)
  }
  if (options.tracer === 'prestateTracer') {
    const tracer = attachPrestateTracer(evm, new Address(request.from ?? new Uint8Array(20)), env.header.coinbase)
    if (request.to) tracer.touch(bytesToHex(request.to))
    const result = await execute().finally(() => tracer.detach())
    if (result.createdAddress) tracer.touch(result.createdAddress.toString())
    const before = (await callVm(env, options.stateOverrides, state)).stateManager
    return tracer.result(before, vm.stateManager, options.tracerConfig?.diffMode ?? false)
  }
  const logger = attachStructLogger(evm, options)
  const result = await execute().finally(() => logger.detach())
  return {
    gas: Number(result.totalGasSpent),
    failed: result.execResult.exceptionError !== undefined,
    returnValue: bytesToHex(result.execResult.returnValue),
    structLogs: logger.logs,
  }
}

/**
 * A VM of the call's fork over a copy of the block's state nothing else sees (a follower's upstream-backed
 * copy, or the chain's trie with writes kept in an overlay), with the state overrides applied, BLOCKHASH
 * answering as the overridden header says, and its outermost frames on the interpreter.
 */
async function callVm(
  env: ExecutionEnv,
  overrides: StateOverrideSpec | undefined,
  state: StateSource | undefined,
): Promise<VM> {
  const stateManager = state ? await state() : (env.readState?.() ?? isolatedStateAt(env.vm, env.stateRoot))
  const vm = await createVM({
    common: throwawayVmCommon(commonAt(env.vm.common, env.header)),
    stateManager,
    blockchain: (env.overridden?.blockHashes ?? env.vm.blockchain) as VM['blockchain'],
  })
  await applyStateOverrides(vm, overrides)
  patchTraceEvm(vm.evm as EVM)
  return vm
}
