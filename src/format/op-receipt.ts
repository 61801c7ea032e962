/**
 * The OP Stack fields of a user transaction's receipt, named and encoded as op-geth/op-reth serve them after
 * Jovian: l1GasPrice, l1GasUsed, l1Fee, l1BaseFeeScalar, l1BlobBaseFee, l1BlobBaseFeeScalar,
 * operatorFeeScalar, operatorFeeConstant, daFootprintGasScalar, and blobGasUsed (the DA footprint).
 */
import { parseQuantity, quantity, type Hex } from './hex.js'
import { operatorFee } from '../opstack/operator-fee.js'
import type { OpReceiptFees } from '../domain/op-fee-params.js'

export function opReceiptFields(fees: OpReceiptFees): Record<string, Hex> {
  return {
    l1GasPrice: quantity(fees.l1BaseFee),
    l1GasUsed: quantity(fees.l1GasUsed),
    l1Fee: quantity(fees.l1Fee),
    l1BaseFeeScalar: quantity(fees.baseFeeScalar),
    l1BlobBaseFee: quantity(fees.blobBaseFee),
    l1BlobBaseFeeScalar: quantity(fees.blobBaseFeeScalar),
    operatorFeeScalar: quantity(fees.operatorFeeScalar),
    operatorFeeConstant: quantity(fees.operatorFeeConstant),
    daFootprintGasScalar: quantity(fees.daFootprintGasScalar),
    blobGasUsed: quantity(fees.daFootprint),
  }
}

/** The OP fields of an upstream receipt (a follower's view), or undefined when it has none (a deposit, no OP chain). */
export function opReceiptFromJson(json: Record<string, unknown>, gasUsed: bigint): OpReceiptFees | undefined {
  if (typeof json.l1Fee !== 'string') return undefined
  const q = (field: string) => (typeof json[field] === 'string' ? parseQuantity(json[field] as string) : 0n)
  const params = {
    l1BaseFee: q('l1GasPrice'),
    blobBaseFee: q('l1BlobBaseFee'),
    baseFeeScalar: q('l1BaseFeeScalar'),
    blobBaseFeeScalar: q('l1BlobBaseFeeScalar'),
    operatorFeeScalar: q('operatorFeeScalar'),
    operatorFeeConstant: q('operatorFeeConstant'),
    daFootprintGasScalar: q('daFootprintGasScalar'),
  }
  return {
    ...params,
    l1Fee: q('l1Fee'),
    l1GasUsed: q('l1GasUsed'),
    operatorFee: operatorFee(gasUsed, params),
    daFootprint: q('blobGasUsed'),
  }
}
