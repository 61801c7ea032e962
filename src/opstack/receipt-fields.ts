/**
 * The OP Stack fields of a user transaction's receipt, named and encoded as op-geth/op-reth serve them after
 * Jovian: l1GasPrice, l1GasUsed, l1Fee, l1BaseFeeScalar, l1BlobBaseFee, l1BlobBaseFeeScalar,
 * operatorFeeScalar, operatorFeeConstant, daFootprintGasScalar, and blobGasUsed (the DA footprint).
 */
import { quantity, type Hex } from '../format/hex.js'
import type { OpReceiptFees } from './op-fees.js'

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
