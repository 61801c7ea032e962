/**
 * A stored receipt's OP Stack fees. They were stored as 11 [name, value] pairs a receipt, ~220 of a packed
 * transfer's ~365 bytes, though seven of them (L1Block's fee parameters, read once a block) are the same for
 * every receipt of a block. Now a block stores those seven once and a receipt only what is its own: l1Fee,
 * l1GasUsed and daFootprint, by position, its operator fee derived from its gasUsed as the chain charged it.
 * A receipt whose fields do not fit that (a follower's come from the upstream's JSON, a gasless transaction
 * pays no operator fee) stores its own full set, still by position.
 */
import type { BlockFeeParams, OpReceiptFees } from '../../domain/op-fee-params.js'
import { operatorFee } from '../../opstack/operator-fee.js'

type Nested = Uint8Array | Nested[]

/** The block's set: the first receipt's with OP fees (every receipt's, unless a follower's upstream said else). */
export function blockFeeSet(fees: readonly (OpReceiptFees | undefined)[]): BlockFeeParams | undefined {
  return fees.find((f) => f !== undefined)
}

/**
 * The block's seven fee values, in their stored order (the order written here: a block's set, and the tail of a
 * receipt's own set). `satisfies` makes a field added to BlockFeeParams and not stored (lost at a restart) a
 * compile error.
 */
const STORED_PARAMS = {
  l1BaseFee: true,
  blobBaseFee: true,
  baseFeeScalar: true,
  blobBaseFeeScalar: true,
  operatorFeeScalar: true,
  operatorFeeConstant: true,
  daFootprintGasScalar: true,
} satisfies Record<keyof BlockFeeParams, true>
const PARAM_KEYS = Object.keys(STORED_PARAMS) as (keyof BlockFeeParams)[]

const paramValues = (p: BlockFeeParams): bigint[] => PARAM_KEYS.map((key) => p[key])

export function encodeFeeSet(p: BlockFeeParams | undefined, int: (n: bigint) => Uint8Array): Nested {
  return p ? paramValues(p).map(int) : []
}

export function decodeFeeSet(f: Nested, big: (b: Nested) => bigint): BlockFeeParams | undefined {
  const v = f as Uint8Array[]
  if (v.length === 0) return undefined
  const params = {} as BlockFeeParams
  for (let i = 0; i < PARAM_KEYS.length; i++) params[PARAM_KEYS[i]!] = big(v[i]!)
  return params
}

const sameParams = (a: BlockFeeParams, b: BlockFeeParams) => PARAM_KEYS.every((key) => a[key] === b[key])

/** [l1Fee, l1GasUsed, daFootprint], then, when the block's set and derivation do not give them, operatorFee and the seven. */
export function encodeOpFees(
  fees: OpReceiptFees | undefined,
  gasUsed: bigint,
  block: BlockFeeParams | undefined,
  int: (n: bigint) => Uint8Array,
): Nested {
  if (!fees) return []
  const own = [fees.l1Fee, fees.l1GasUsed, fees.daFootprint]
  if (block && sameParams(fees, block) && fees.operatorFee === operatorFee(gasUsed, block)) return own.map(int)
  return [...own, fees.operatorFee, ...paramValues(fees)].map(int)
}

export function decodeOpFees(
  f: Nested,
  gasUsed: bigint,
  block: BlockFeeParams | undefined,
  big: (b: Nested) => bigint,
): OpReceiptFees | undefined {
  const v = f as Uint8Array[]
  if (v.length === 0) return undefined
  const params = v.length > 3 ? decodeFeeSet(v.slice(4), big)! : block
  if (!params) throw new Error('stored receipt: OP fees by the block set, which the block lacks')
  return {
    ...params,
    l1Fee: big(v[0]!),
    l1GasUsed: big(v[1]!),
    operatorFee: v.length > 3 ? big(v[3]!) : operatorFee(gasUsed, params),
    daFootprint: big(v[2]!),
  }
}
