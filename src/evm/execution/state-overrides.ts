/**
 * State overrides (eth_call's, eth_estimateGas's, each eth_simulateV1 block's): accounts in address order, a
 * precompile given `movePrecompileToAddress` answers at its new address in this VM, and a precompile's own
 * address runs the code an override gives it (geth; the execution-apis eth_simulateV1 cases override ecrecover
 * so). An override of a precompile's balance, nonce or storage, or of its code with none, leaves the
 * precompile answering, as reth and anvil do: state tests and state dumps list the precompiles' accounts
 * (balance 1, empty code), and geth, which drops any precompile named in an override, then runs empty code.
 */
import type { StateManagerInterface } from '@ethereumjs/common'
import {
  bigIntToUnpaddedBytes,
  bytesToHex,
  bytesToUnprefixedHex,
  createAccount,
  createAddressFromString,
  setLengthLeft,
} from '@ethereumjs/util'
import type { VM } from '@ethereumjs/vm'
import type { StateOverrideSpec } from '../../domain/call-request.js'
import { NotAPrecompileError, PrecompileDestinationOverriddenError, StateAndStateDiffError } from '../../errors.js'

export async function applyStateOverrides(vm: VM, overrides: StateOverrideSpec | undefined): Promise<void> {
  // a VM reused for the next simulated block starts again from the fork's precompiles
  Reflect.deleteProperty(vm.evm, 'getPrecompile')
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
    if (precompile && (account.movePrecompileTo || (account.code?.length ?? 0) > 0)) precompiles.delete(key)
    if (account.state && account.stateDiff) throw new StateAndStateDiffError(address)
  }
  await applyAccountFields(vm.stateManager, overrides)
}

async function applyAccountFields(
  state: Pick<StateManagerInterface, 'getAccount' | 'putAccount' | 'putCode' | 'clearStorage' | 'putStorage'>,
  overrides: StateOverrideSpec,
): Promise<void> {
  for (const [address, o] of overrides) {
    const addr = createAddressFromString(address)
    // an override that sets neither leaves the account as it is (absent stays absent, as geth)
    if (o.balance !== undefined || o.nonce !== undefined) {
      const account = (await state.getAccount(addr)) ?? createAccount({})
      if (o.balance !== undefined) account.balance = o.balance
      if (o.nonce !== undefined) account.nonce = o.nonce
      await state.putAccount(addr, account)
    }
    if (o.code !== undefined) await state.putCode(addr, o.code)
    if (o.state) await state.clearStorage(addr)
    for (const [slot, value] of [...(o.state ?? []), ...(o.stateDiff ?? [])]) {
      await state.putStorage(addr, setLengthLeft(bigIntToUnpaddedBytes(slot), 32), bigIntToUnpaddedBytes(value))
    }
  }
}
