/** The embedded chain's StateView: a read-only MerkleStateManager on a committed root. */
import type { MerkleStateManager } from '@ethereumjs/statemanager'
import { Address } from '@ethereumjs/util'
import type { StateView } from '../capabilities/read.js'

export function merkleStateView(state: MerkleStateManager): StateView {
  return {
    balance: async (address) => (await state.getAccount(new Address(address)))?.balance ?? 0n,
    nonce: async (address) => (await state.getAccount(new Address(address)))?.nonce ?? 0n,
    code: (address) => state.getCode(new Address(address)),
    storage: (address, slot) => state.getStorage(new Address(address), slot),
  }
}
