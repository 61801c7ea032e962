/**
 * geth refuses a transaction whose RLP integer carries a leading zero byte as it decodes it (rlp/decode.go:
 * `rlp: non-canonical integer (leading zero bytes) for *big.Int, decoding into (types.DynamicFeeTx).ChainID`,
 * -32000). @ethereumjs refuses the same bytes in every field but a typed transaction's chain id, in words of
 * its own; accepting that one gave a hash that is not the keccak of the bytes. So a client's bytes are checked
 * here first, every integer field of every type this chain runs, and refused with geth's words. Only at the
 * client's door: a block, a feed or a journal that already holds such bytes is read as it was
 * (decodeTransaction; persist/sealed-tx.ts hashes it as @ethereumjs does).
 */
import { NonCanonicalIntegerError } from '../../errors.js'
import { decodeViews, type Item } from '../../domain/rlp-views.js'

/** An integer field: its index in the RLP list, geth's field name and Go type (the error names both). */
type IntField = readonly [at: number, name: string, goType: string]

const BIG = '*big.Int'
const U64 = 'uint64'
const U256 = '*uint256.Int'

interface Layout {
  /** geth's struct for the type (core/types/tx_*.go). */
  struct: string
  ints: readonly IntField[]
  /** Where an EIP-7702 authorization list sits: before the signature, so checked in that order. */
  authList?: number
}

const LAYOUTS: Partial<Record<number, Layout>> = {
  0: {
    struct: 'types.LegacyTx',
    ints: [
      [0, 'Nonce', U64],
      [1, 'GasPrice', BIG],
      [2, 'Gas', U64],
      [4, 'Value', BIG],
      [6, 'V', BIG],
      [7, 'R', BIG],
      [8, 'S', BIG],
    ],
  },
  1: {
    struct: 'types.AccessListTx',
    ints: [
      [0, 'ChainID', BIG],
      [1, 'Nonce', U64],
      [2, 'GasPrice', BIG],
      [3, 'Gas', U64],
      [5, 'Value', BIG],
      [8, 'V', BIG],
      [9, 'R', BIG],
      [10, 'S', BIG],
    ],
  },
  2: {
    struct: 'types.DynamicFeeTx',
    ints: [
      [0, 'ChainID', BIG],
      [1, 'Nonce', U64],
      [2, 'GasTipCap', BIG],
      [3, 'GasFeeCap', BIG],
      [4, 'Gas', U64],
      [6, 'Value', BIG],
      [9, 'V', BIG],
      [10, 'R', BIG],
      [11, 'S', BIG],
    ],
  },
  4: {
    struct: 'types.SetCodeTx',
    ints: [
      [0, 'ChainID', U256],
      [1, 'Nonce', U64],
      [2, 'GasTipCap', U256],
      [3, 'GasFeeCap', U256],
      [4, 'Gas', U64],
      [6, 'Value', U256],
      [10, 'V', U256],
      [11, 'R', U256],
      [12, 'S', U256],
    ],
    authList: 9,
  },
}

/** types.SetCodeAuthorization's integers. */
const AUTHORIZATION: readonly IntField[] = [
  [0, 'ChainID', U256],
  [2, 'Nonce', U64],
  [3, 'V', 'uint8'],
  [4, 'R', U256],
  [5, 'S', U256],
]

/**
 * Throws NonCanonicalIntegerError naming the first padded integer, in geth's decoding order. Bytes that are
 * not a transaction of a type this chain runs pass untouched: decodeTransaction answers them in its words.
 */
export function refuseNonCanonicalIntegers(raw: Uint8Array): void {
  if (raw.length === 0) return
  const type = raw[0]! >= 0xc0 ? 0 : raw[0]!
  const layout = LAYOUTS[type]
  if (!layout) return
  let fields: Item
  try {
    fields = decodeViews(type === 0 ? raw : raw.subarray(1), notRlp)
  } catch {
    return
  }
  if (!Array.isArray(fields)) return
  const padded = firstPadded(fields, layout)
  if (padded) throw new NonCanonicalIntegerError(padded.goType, `(${layout.struct})${padded.path}`)
}

function firstPadded(fields: Item[], layout: Layout): { goType: string; path: string } | undefined {
  const before = layout.authList ?? fields.length
  const found = paddedAmong(
    fields,
    layout.ints.filter(([at]) => at < before),
  )
  if (found) return found
  const auths = layout.authList === undefined ? undefined : fields[layout.authList]
  if (Array.isArray(auths)) {
    for (let i = 0; i < auths.length; i++) {
      const auth = auths[i]!
      const inAuth = Array.isArray(auth) ? paddedAmong(auth, AUTHORIZATION) : undefined
      if (inAuth) return { goType: inAuth.goType, path: `.AuthList[${i}]${inAuth.path}` }
    }
  }
  return paddedAmong(
    fields,
    layout.ints.filter(([at]) => at > before),
  )
}

/** A string item starting with a zero byte (0x00 itself included: zero is the empty string). */
function paddedAmong(items: Item[], ints: readonly IntField[]): { goType: string; path: string } | undefined {
  for (const [at, name, goType] of ints) {
    const item = items[at]
    if (item instanceof Uint8Array && item.length > 0 && item[0] === 0) return { goType, path: `.${name}` }
  }
  return undefined
}

const notRlp = () => new Error('not RLP')
