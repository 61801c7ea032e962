/**
 * A signed transaction re-encoded with one integer field behind a leading zero byte: the same value, bytes
 * geth's decoder refuses (rlp: non-canonical integer). A typed transaction's padded chain id is the one
 * @ethereumjs reads anyway, hashing the minimal encoding it would write, so its hash is not the keccak of the
 * bytes: data directories written before admission refused it hold such transactions.
 */
import { RLP } from '@ethereumjs/rlp'
import { concatBytes } from '@ethereumjs/util'

/** `raw` with its RLP field `at` (top level; `[at, i, j]` inside a list, e.g. an authorization) padded. */
export function withPaddedField(raw: Uint8Array, at: number | readonly number[]): Uint8Array {
  const typed = raw[0]! < 0xc0
  const fields = RLP.decode(typed ? raw.subarray(1) : raw) as unknown[]
  const path = typeof at === 'number' ? [at] : at
  let list = fields
  for (const i of path.slice(0, -1)) list = list[i] as unknown[]
  const last = path[path.length - 1]!
  list[last] = concatBytes(new Uint8Array(1), list[last] as Uint8Array)
  const body = RLP.encode(fields as Uint8Array[])
  return typed ? concatBytes(raw.subarray(0, 1), body) : body
}

/** A typed transaction with its chain id (field 0) padded. */
export const withPaddedChainId = (raw: Uint8Array): Uint8Array => withPaddedField(raw, 0)
