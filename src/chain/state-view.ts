/** The embedded chain's StateView over a committed root's reader (state-cache.ts). */
import { Address } from '@ethereumjs/util'
import type { StateView } from '../capabilities/read.js'
import type { StateSource } from './execution/call-state.js'

export function merkleStateView(state: StateSource): StateView {
  return {
    balance: async (address) => (await state.getAccount(new Address(address)))?.balance ?? 0n,
    nonce: async (address) => (await state.getAccount(new Address(address)))?.nonce ?? 0n,
    code: (address) => state.getCode(new Address(address)),
    storage: (address, slot) => state.getStorage(new Address(address), slot),
  }
}
