/**
 * Jump-destination analysis once per contract code instead of once per call. @ethereumjs's interpreter
 * scans the whole bytecode (a bigint per PUSH, an array the code's length) on every call frame that jumps:
 * the largest single cost of a view call after the state reads, and most of its garbage. revm, under anvil,
 * keeps analysed bytecode the same way. The result depends on the code bytes and the EVM's opcode table
 * only and the interpreter never writes to it, so it is kept per EVM (only those `cacheJumpAnalysis` names)
 * and per code array: the read views hand out the same array for a contract until its root is dropped.
 */
import type { EVM } from '@ethereumjs/evm'
import { interpreterPrototype } from './evm-internals.js'

type Analysis = unknown
type InterpreterPrototype = { _getValidJumpDestinations(this: InterpreterLike, code: Uint8Array): Analysis }
type InterpreterLike = { _evm: EVM }

const caches = new WeakMap<EVM, WeakMap<Uint8Array, Analysis>>()

const prototype = interpreterPrototype as InterpreterPrototype | undefined
const analyse = prototype?._getValidJumpDestinations
if (prototype && analyse) {
  prototype._getValidJumpDestinations = function (code) {
    const cache = caches.get(this._evm)
    if (!cache) return analyse.call(this, code)
    let analysis = cache.get(code)
    if (analysis === undefined) cache.set(code, (analysis = analyse.call(this, code)))
    return analysis
  }
}

/** Keeps the analyses of the code `evm` runs (an EVM whose opcode table never changes). */
export function cacheJumpAnalysis(evm: EVM): void {
  caches.set(evm, new WeakMap())
}
