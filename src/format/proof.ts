/** eth_getProof's wire shape to and from the domain AccountProof (a follower reads its upstream's). */
import type { AccountProof } from '../capabilities/read.js'
import type { AccountProof as WireAccountProof } from '../../generated/types.js'
import { address, data, parseData, parseQuantity, quantity } from './hex.js'

/**
 * `keys` as the caller wrote them: geth echoes a 32-byte key as given and any shorter one as a quantity
 * (`0x00` → `0x0`), which older clients expect.
 */
export function formatAccountProof(
  account: Uint8Array,
  keys: readonly string[],
  proof: AccountProof,
): WireAccountProof {
  return {
    address: address(account),
    accountProof: proof.accountProof.map(data),
    balance: quantity(proof.balance),
    codeHash: data(proof.codeHash),
    nonce: quantity(proof.nonce),
    storageHash: data(proof.storageHash),
    storageProof: proof.storageProof.map((s, i) => {
      const key = parseData(keys[i]!)
      return {
        key: key.length === 32 ? data(key) : quantity(BigInt(data(key) === '0x' ? 0 : data(key))),
        value: quantity(s.value),
        proof: s.proof.map(data),
      }
    }),
  }
}

export function parseAccountProof(wire: WireAccountProof): AccountProof {
  return {
    balance: parseQuantity(wire.balance),
    nonce: parseQuantity(wire.nonce),
    codeHash: parseData(wire.codeHash),
    storageHash: parseData(wire.storageHash),
    accountProof: wire.accountProof.map(parseData),
    storageProof: wire.storageProof.map((s) => ({ value: parseQuantity(s.value), proof: s.proof.map(parseData) })),
  }
}
