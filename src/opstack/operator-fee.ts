/**
 * The operator fee (Isthmus, changed by Jovian) and Jovian's DA footprint. The operator fee is charged on
 * top of gas to every non-deposit transaction and paid to the operator fee vault; both L1 attributes zero
 * means no fee. The DA footprint makes a block's header gasUsed max(gas, Σ DA size × scalar), so heavy
 * DA usage raises the next base fee (specs/protocol/jovian/exec-engine.md).
 */
import { flzCompressLength } from './fastlz.js'
import { fjordEstimatedSize } from './l1-fee.js'

export interface OperatorFeeParams {
  operatorFeeScalar: bigint
  operatorFeeConstant: bigint
}

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

/** One transaction's DA usage estimate in bytes (Fjord's estimated size, whole bytes); 0 for a deposit. */
export function daUsageEstimate(txBytes: Uint8Array): bigint {
  if (txBytes.length === 0 || txBytes[0] === 0x7e) return 0n
  return fjordEstimatedSize(flzCompressLength(txBytes)) / 1_000_000n
}

/** The block's scaled DA footprint: Σ over non-deposit txs of their DA usage, × daFootprintGasScalar. */
export function daFootprint(txs: Iterable<Uint8Array>, daFootprintGasScalar: bigint): bigint {
  let total = 0n
  for (const tx of txs) total += daUsageEstimate(tx)
  return total * daFootprintGasScalar
}

/** Jovian's header gasUsed: the larger of the gas the transactions used and the DA footprint. */
export function jovianHeaderGasUsed(gasUsed: bigint, footprint: bigint): bigint {
  return footprint > gasUsed ? footprint : gasUsed
}
