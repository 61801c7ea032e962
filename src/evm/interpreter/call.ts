/**
 * The call path's entry to the interpreter (fast-call.ts): whether it may run a call, and the call's result
 * from it or undefined when it handed the call back (counted by reason in stats.ts). It is on unless
 * PRECONF_EVM_INTERPRETER=0 (the way back to @ethereumjs's loop should a call ever differ), and only for forks
 * whose opcodes and prices it has (Cancun, Prague).
 */
import type { Common } from '@ethereumjs/common'
import type { EVM, EVMResult } from '@ethereumjs/evm'
import type { Eventually } from '../../capabilities/eventually.js'
import type { StateSource } from '../execution/call-state.js'
import { Fallback, precompileAt } from './host.js'
import { type InterpretedCall, interpret } from './run.js'
import { countFallback, interpreterStats } from './stats.js'

const FORKS = new Set(['cancun', 'prague'])
/** EIPs some chains switch on beyond their fork that change opcodes or their prices. */
const FOREIGN_EIPS = [663, 3540, 6800, 7692, 7864, 7928, 7939, 8024, 8037, 8038]

/** Whether calls use the interpreter unless a caller says otherwise (PRECONF_EVM_INTERPRETER=0 turns it off). */
export function interpreterByDefault(): boolean {
  return process.env.PRECONF_EVM_INTERPRETER !== '0'
}

/** Whether the interpreter has `common`'s opcodes and prices. */
export function interpreterFits(common: Common): boolean {
  return FORKS.has(common.hardfork()) && !FOREIGN_EIPS.some((eip) => common.isActivatedEIP(eip))
}

/**
 * The call run by the interpreter, or undefined when the reference path must run it: a precompile as the
 * recipient (left to runCall as top-frame.ts leaves it), or a Fallback met on the way (nothing was written
 * to `source`, so the restart sees the state as it was).
 */
export function interpretCall(evm: EVM, source: StateSource, call: InterpretedCall): Eventually<EVMResult | undefined> {
  if (precompileAt(evm, call.to.bytes)) return undefined
  let result: Eventually<EVMResult>
  try {
    result = interpret(evm, source, call)
  } catch (err) {
    return handedBack(err)
  }
  return result instanceof Promise ? result.then(answered, handedBack) : answered(result)
}

function answered(result: EVMResult): EVMResult {
  interpreterStats.answered++
  return result
}

/** undefined for a Fallback (counted), which the reference path then runs; any other error is the call's. */
function handedBack(err: unknown): undefined {
  if (!(err instanceof Fallback)) throw err
  countFallback(err.reason)
  return undefined
}
