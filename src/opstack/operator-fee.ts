/**
 * The operator fee (Isthmus, changed by Jovian): charged on top of gas to every non-deposit transaction and
 * paid to the operator fee vault; both L1 attributes zero means no fee.
 */
import type { OperatorFeeParams } from '../domain/op-fee-params.js'

export type OperatorFeeRule = 'isthmus' | 'jovian'

/** Isthmus: gasUsed·scalar/1e6 + constant. */
export function isthmusOperatorFee(gasUsed: bigint, p: OperatorFeeParams): bigint {
  return (gasUsed * p.operatorFeeScalar) / 1_000_000n + p.operatorFeeConstant
}

/** Jovian: gasUsed·scalar·100 + constant. */
export function jovianOperatorFee(gasUsed: bigint, p: OperatorFeeParams): bigint {
  return gasUsed * p.operatorFeeScalar * 100n + p.operatorFeeConstant
}

export function operatorFee(gasUsed: bigint, p: OperatorFeeParams, rule: OperatorFeeRule = 'jovian'): bigint {
  if (p.operatorFeeScalar === 0n && p.operatorFeeConstant === 0n) return 0n
  return rule === 'jovian' ? jovianOperatorFee(gasUsed, p) : isthmusOperatorFee(gasUsed, p)
}
