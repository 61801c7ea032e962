/**
 * An EVM.shallowCopy that shares its source's opcode tables instead of building them again (EVM's
 * constructor does, ~0.1 ms: 10 ms for a flashblock of 100 calls), for the follower's read discovery
 * (follower/discover.ts). The tables are lookups that execution never changes, and a discovery run's results
 * are thrown away in any case. It reads the source's constructor options and writes the copy's four tables:
 * fields protected in @ethereumjs/evm, which installEvmPatches checks are there.
 */
import type { Common } from '@ethereumjs/common'
import { EVM } from '@ethereumjs/evm'

/** The EVM each discovery copy is made from, by the copy's Common (EVM's constructor reads the tables). */
const tablesOf = new WeakMap<Common, EVM>()

class DiscoveryEVM extends EVM {
  static from(source: EVM): DiscoveryEVM {
    const common = source.common.copy()
    tablesOf.set(common, source)
    const opts = source['_optsCached']
    return new DiscoveryEVM({ ...opts, common, stateManager: source.stateManager.shallowCopy() })
  }

  override getActiveOpcodes() {
    const source = tablesOf.get(this.common)
    if (!source) return super.getActiveOpcodes()
    this._opcodes = source['_opcodes']
    this._dynamicGasHandlers = source['_dynamicGasHandlers']
    this._handlers = source['_handlers']
    this._opcodeMap = source['_opcodeMap']
    return this._opcodes
  }
}

/** A throw-away copy of `evm` on a shallow copy of its state, sharing its opcode tables. */
export function discoveryCopy(evm: EVM): EVM {
  return DiscoveryEVM.from(evm)
}
