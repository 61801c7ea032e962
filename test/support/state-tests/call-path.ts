/**
 * Path 2: the case's transaction as an eth_call (from its sender, its gas limit, no fee fields: the plain call
 * most eth_calls are) on the pre-state, three ways: the fast path (fast-call.ts, on the chain's read view of
 * the pre-state root), runTx's path (run.ts, what a call the fast path declines takes), and runTx's path with
 * the pre-state given as a state override on an empty state (how the divergences in issue 25 were found). All
 * three must give the same status, return data, execution gas and logs; runTx's path is the reference.
 */
import { createVM } from '@ethereumjs/vm'
import { bytesToHex } from '@ethereumjs/util'
import type { EVMResult } from '@ethereumjs/evm'
import type { RunTxResult } from '@ethereumjs/vm'
import { throwawayVmCommon } from '../../../src/evm/chain-common.js'
import { nodeStore, stateAt } from '../../../src/evm/state-views.js'
import { CallEvms } from '../../../src/evm/execution/fast-call.js'
import { type ExecutionEnv, execute } from '../../../src/evm/execution/run.js'
import { VmPool } from '../../../src/evm/execution/vm-pool.js'
import { RootReader, StateCache } from '../../../src/evm/state-cache.js'
import type { CallRequest, StateOverrideSpec } from '../../../src/domain/call-request.js'
import type { Case, PreAccount } from './fixtures.js'
import { blockOf, preState, senderOf, stateTestCommon, testBlockHashes, unsignedTxOf } from './prestate.js'
import { logsHash } from './run-tx.js'

/** What an eth_call answers, and the gas and logs eth_simulateV1 would report of it. */
export interface CallOutcome {
  error?: string
  returnData: string
  gas: bigint
  logs: string
}

export interface CallPaths {
  /** undefined: the fast path declines the call (a creation, a value, an access list: runTx's path runs it). */
  fast?: CallOutcome
  runTx: CallOutcome
  overridden: CallOutcome
}

export function outcome(result: EVMResult | RunTxResult): CallOutcome {
  const r = result.execResult
  return {
    error: r.exceptionError?.error,
    returnData: bytesToHex(r.returnValue),
    gas: r.executionGasUsed,
    logs: logsHash((r.logs ?? []) as never),
  }
}

/**
 * The case's eth_call request; undefined for a transaction that cannot be built (an invalid-tx case). Built
 * from the transaction unsigned and the sender its key gives: a call carries no signature, and signing and
 * recovering were a fifth of the interpreter's comparison.
 */
export function callRequestOf(c: Case): { request: CallRequest; gas: bigint; fees: CallRequest } | undefined {
  let tx: ReturnType<typeof unsignedTxOf>
  try {
    tx = unsignedTxOf(c)
  } catch {
    return undefined
  }
  const request: CallRequest = {
    from: senderOf(c).bytes,
    to: tx.to?.bytes,
    data: tx.data,
    value: tx.value,
    ...('accessList' in tx && tx.accessList.length ? { accessList: accessListOf(tx.accessList) } : {}),
  }
  // the transaction's fee fields as a wallet sends them with a call (legacy and access-list: gasPrice)
  const fees: CallRequest =
    'maxFeePerGas' in tx
      ? { maxFeePerGas: tx.maxFeePerGas, maxPriorityFeePerGas: tx.maxPriorityFeePerGas }
      : { gasPrice: (tx as { gasPrice: bigint }).gasPrice }
  return { request, gas: tx.gasLimit, fees }
}

function accessListOf(list: unknown): CallRequest['accessList'] {
  return (list as [Uint8Array, Uint8Array[]][]).map(([address, storageKeys]) => ({ address, storageKeys }))
}

/** The pre-state as an eth_call state override (balance, nonce, code and storage of every account). */
export function overridesOf(pre: Record<string, PreAccount>): StateOverrideSpec {
  const out: StateOverrideSpec = new Map()
  for (const [address, a] of Object.entries(pre)) {
    out.set(address.toLowerCase(), {
      balance: BigInt(a.balance),
      nonce: BigInt(a.nonce),
      code: Uint8Array.from(Buffer.from(a.code.slice(2), 'hex')),
      state: new Map(Object.entries(a.storage).map(([k, v]) => [BigInt(k), BigInt(v)])),
    })
  }
  return out
}

/** Far above any case's run: a busy machine must not turn a case into a timeout. */
const BUDGET_MS = 60_000

/** Where a case's calls run: the chain's ExecutionEnv over the pre-state, or over an empty state (`empty`). */
export async function callEnv(c: Case, empty = false): Promise<ExecutionEnv> {
  const { state, root } = await preState(empty ? {} : c.test.pre, stateTestCommon(c.fork))
  const vm = await createVM({
    common: throwawayVmCommon(state.common),
    stateManager: state,
    blockchain: testBlockHashes,
  })
  const header = blockOf(c.test, vm.common).header
  const view = new RootReader(root, () => stateAt(vm, root), new StateCache(nodeStore(vm)))
  return { vm, vms: new VmPool(vm), stateRoot: root, header, view, calls: new CallEvms(vm, BUDGET_MS) }
}

export async function runCallPaths(c: Case, call: { request: CallRequest; gas: bigint }): Promise<CallPaths> {
  const env = await callEnv(c)
  const fast = await env.calls!.runOnce(env.view!, env.header, call.request, call.gas)
  const runTx = await execute(env, call.request, call.gas, undefined, { timeoutMs: BUDGET_MS })
  const overrides = overridesOf(c.test.pre)
  const overridden = await execute(await callEnv(c, true), call.request, call.gas, overrides, { timeoutMs: BUDGET_MS })
  return { fast: fast && outcome(fast), runTx: outcome(runTx), overridden: outcome(overridden) }
}

/** How `other` differs from the reference, or undefined when it does not. */
export function callDifference(reference: CallOutcome, other: CallOutcome): string | undefined {
  if (other.error !== reference.error) return `error ${other.error ?? 'none'}, runTx's ${reference.error ?? 'none'}`
  if (other.returnData !== reference.returnData)
    return `return data ${other.returnData}, runTx's ${reference.returnData}`
  if (other.gas !== reference.gas) return `gas used ${other.gas}, runTx's ${reference.gas}`
  if (other.logs !== reference.logs) return `logs hash ${other.logs}, runTx's ${reference.logs}`
  return undefined
}
