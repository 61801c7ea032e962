/**
 * The interpreter (src/evm/interpreter/) against the reference on every state-test case it can take: the
 * case's transaction as a plain eth_call (its sender, recipient, data and gas; no access list, which the
 * plain-call path declines) on the pre-state, once on the plain-call path with the interpreter on and once on
 * runTx's path (run.ts). Both must give the same status, return data, execution gas and logs. `paying`: with
 * the transaction's value and fee fields too, as a wallet's eth_call or eth_estimateGas sends them (the
 * interpreter then starts from the accounts runTx's gas purchase and transfer leave, call-payment.ts). A case
 * the interpreter hands back (a fallback, counted by reason) or the plain-call path declines is not compared.
 */
import { CallEvms } from '../../../src/evm/execution/fast-call.js'
import { execute } from '../../../src/evm/execution/run.js'
import { interpreterStats } from '../../../src/evm/interpreter/stats.js'
import { callDifference, callEnv, callRequestOf, outcome } from './call-path.js'
import type { Case } from './fixtures.js'

const BUDGET_MS = 60_000
export const NO_CALL = 'no eth_call (an invalid transaction or a creation)'

export type InterpreterVerdict =
  | { kind: 'agreed' }
  | { kind: 'differs'; why: string }
  /** Not an eth_call, a creation, a sender with code, or a fallback (reason). */
  | { kind: 'not run'; reason: string }

function fallbacks(): number {
  let n = 0
  for (const count of interpreterStats.fallbacks.values()) n += count
  return n
}

export async function interpreterCase(c: Case, paying = false): Promise<InterpreterVerdict> {
  const call = c.expected.expectException ? undefined : callRequestOf(c)
  if (!call?.request.to) return { kind: 'not run', reason: NO_CALL }
  const { from, to, data, value } = call.request
  const request = paying ? { from, to, data, value, ...call.fees } : { from, to, data }
  const env = await callEnv(c)
  const answered = interpreterStats.answered
  const before = fallbacks()
  const interpreted = await new CallEvms(env.vm, BUDGET_MS, true).runOnce(env.view!, env.header, request, call.gas)
  if (interpreterStats.answered === answered) {
    const reason = fallbacks() > before ? 'fallback' : 'declined by the plain-call path'
    return { kind: 'not run', reason }
  }
  const reference = await execute(env, request, call.gas, undefined, { timeoutMs: BUDGET_MS })
  const why = callDifference(outcome(reference), outcome(interpreted!))
  return why ? { kind: 'differs', why } : { kind: 'agreed' }
}
