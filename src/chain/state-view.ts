/** The embedded chain's StateView over a committed root's reader (state-cache.ts), proofs from its trie. */
import { type Account, Address, bytesToBigInt, hexToBytes } from '@ethereumjs/util'
import { getMerkleStateProof } from '@ethereumjs/statemanager'
import { andThen } from '../capabilities/eventually.js'
import type { AccountProof, StateView } from '../capabilities/read.js'
import type { RootReader } from '../evm/state-cache.js'

const ZERO_HASH = new Uint8Array(32)

// module functions, not closures: a read made one per call
const balanceOf = (account: Account | null) => account?.balance ?? 0n
const nonceOf = (account: Account | null) => account?.nonce ?? 0n

/** One view per reader (readers are kept per root): a cheap read need not build one per request. */
const views = new WeakMap<RootReader, StateView>()

export function merkleStateView(state: RootReader): StateView {
  let view = views.get(state)
  if (!view) {
    view = {
      balance: (address) => andThen(state.readAccount(new Address(address)), balanceOf),
      nonce: (address) => andThen(state.readAccount(new Address(address)), nonceOf),
      code: (address) => state.getCode(new Address(address)),
      storage: (address, slot) => state.getStorage(new Address(address), slot),
      proof: (address, slots) => merkleProof(state, address, slots),
    }
    views.set(state, view)
  }
  return view
}

/** The proof from the root's own trie (@ethereumjs's getProof), in geth's shape for a missing account. */
async function merkleProof(
  reader: RootReader,
  address: Uint8Array,
  slots: readonly Uint8Array[],
): Promise<AccountProof> {
  const at = new Address(address)
  const proof = await getMerkleStateProof(reader.state, at, [...slots])
  const accountProof = proof.accountProof.map((node) => hexToBytes(node))
  if (!(await reader.getAccount(at)))
    return {
      balance: 0n,
      nonce: 0n,
      codeHash: ZERO_HASH,
      storageHash: ZERO_HASH,
      accountProof,
      storageProof: slots.map(() => ({ value: 0n, proof: [] })),
    }
  return {
    balance: BigInt(proof.balance),
    nonce: BigInt(proof.nonce),
    codeHash: hexToBytes(proof.codeHash),
    storageHash: hexToBytes(proof.storageHash),
    accountProof,
    storageProof: proof.storageProof.map((s) => ({
      value: bytesToBigInt(hexToBytes(s.value === '0x0' ? '0x' : s.value)),
      proof: s.proof.map((node) => hexToBytes(node)),
    })),
  }
}
