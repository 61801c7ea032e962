/**
 * Jump-destination analysis once per contract code instead of once per call. @ethereumjs's interpreter
 * scans the whole bytecode (a bigint per PUSH, an array the code's length) on every call frame that jumps:
 * the largest single cost of a view call after the state reads, and most of its garbage. revm, under anvil,
 * keeps analysed bytecode the same way. The result depends on the code bytes and the EVM's opcode table
 * only and the interpreter never writes to it, so it is kept per EVM (only those `cacheJumpAnalysis` names)
 * and per code array: the read views hand out the same array for a contract until its root is dropped.
 */
import type { EVM } from '@ethereumjs/evm'
import { hookRuns } from './hook-runs.js'
import type { Interpreter, InterpreterClass } from './internals.js'

type Analysis = ReturnType<Interpreter['_getValidJumpDestinations']>

const caches = new WeakMap<EVM, WeakMap<Uint8Array, Analysis>>()

/** `Base` with its frames' jump analyses kept for the EVMs `cacheJumpAnalysis` names. */
export function withJumpCache(Base: InterpreterClass): InterpreterClass {
  return class extends Base {
    override _getValidJumpDestinations(code: Uint8Array): Analysis {
      const cache = caches.get(this._evm)
      if (!cache) return super._getValidJumpDestinations(code)
      let analysis = cache.get(code)
      if (analysis === undefined) cache.set(code, (analysis = super._getValidJumpDestinations(code)))
      else hookRuns.jumpAnalysis++
      return analysis
    }
  }
}

/** Keeps the analyses of the code `evm` runs (an EVM whose opcode table never changes). */
export function cacheJumpAnalysis(evm: EVM): void {
  caches.set(evm, new WeakMap())
}
