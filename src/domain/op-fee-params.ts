/**
 * What a non-deposit transaction's OP Stack fees are computed from (L1Block's storage at the block's start)
 * and what its receipt records of them: facts of a record on an OP chain, so domain/types.ts holds them
 * without reaching up to opstack/, which computes them.
 */

/** Ecotone/Fjord's L1 attributes (opstack/l1-fee.ts). */
export interface L1FeeParams {
  l1BaseFee: bigint
  blobBaseFee: bigint
  baseFeeScalar: bigint
  blobBaseFeeScalar: bigint
}

/** Isthmus/Jovian's operator fee attributes (opstack/operator-fee.ts). */
export interface OperatorFeeParams {
  operatorFeeScalar: bigint
  operatorFeeConstant: bigint
}

export interface BlockFeeParams extends L1FeeParams, OperatorFeeParams {
  daFootprintGasScalar: bigint
}

/** The receipt's OP fields of one user transaction (op-geth names them l1Fee, l1GasPrice, ...). */
export interface OpReceiptFees extends BlockFeeParams {
  l1Fee: bigint
  l1GasUsed: bigint
  operatorFee: bigint
  /** Jovian: the transaction's DA footprint, shown as the receipt's blobGasUsed. */
  daFootprint: bigint
}
