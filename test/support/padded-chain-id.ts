/**
 * A typed transaction re-encoded with its chain id behind a leading zero byte: @ethereumjs (and so admission)
 * accepts it, reads the same chain id and signature, and hashes the minimal encoding it would write, so its hash
 * is not the keccak of the bytes sent. For tests of code that hashes stored bytes itself.
 */
import { RLP } from '@ethereumjs/rlp'
import { concatBytes } from '@ethereumjs/util'

export function withPaddedChainId(raw: Uint8Array): Uint8Array {
  const fields = RLP.decode(raw.subarray(1)) as Uint8Array[]
  fields[0] = concatBytes(new Uint8Array(1), fields[0]!)
  return concatBytes(raw.subarray(0, 1), RLP.encode(fields))
}
