/**
 * A simulated block's state overrides, as geth applies them: accounts in address order, a precompile given
 * `movePrecompileToAddress` answers at its new address from then on (for this block), and an overridden
 * precompile's own address runs the code it is given (or none).
 */
import { bytesToHex, bytesToUnprefixedHex } from '@ethereumjs/util'
import type { VM } from '@ethereumjs/vm'
import type { StateOverrideSpec } from '../../../domain/call-request.js'
import { NotAPrecompileError, PrecompileDestinationOverriddenError, StateAndStateDiffError } from '../../../errors.js'
import { applyOverrides } from '../run.js'

export async function applySimulateOverrides(vm: VM, overrides: StateOverrideSpec | undefined): Promise<void> {
  if (!overrides) return
  // the EVM keeps its own list for warming addresses (geth warms the fork's precompile addresses, moved or
  // not); lookups go to this VM's copy, keyed by unprefixed lower-case address
  const precompiles = new Map(vm.evm.precompiles)
  vm.evm.getPrecompile = (address) =>
    precompiles.get(
      typeof address === 'string'
        ? address.slice(2).padStart(40, '0').toLowerCase()
        : bytesToUnprefixedHex(address.bytes),
    ) as never
  const movedTo = new Set<string>()
  for (const address of [...overrides.keys()].sort()) {
    const account = overrides.get(address)!
    if (movedTo.has(address)) throw new PrecompileDestinationOverriddenError(address)
    const key = address.slice(2)
    const precompile = precompiles.get(key)
    if (account.movePrecompileTo) {
      if (!precompile) throw new NotAPrecompileError(address)
      const destination = bytesToHex(account.movePrecompileTo)
      if (overrides.has(destination)) throw new PrecompileDestinationOverriddenError(destination)
      precompiles.set(bytesToUnprefixedHex(account.movePrecompileTo), precompile)
      movedTo.add(destination)
    }
    if (precompile) precompiles.delete(key)
    if (account.state && account.stateDiff) throw new StateAndStateDiffError(address)
  }
  await applyOverrides(vm.stateManager, overrides)
}
