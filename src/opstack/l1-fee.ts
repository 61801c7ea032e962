/**
 * The L1 data fee of a non-deposit transaction, from its EIP-2718 bytes and the L1 attributes of the block
 * (specs/protocol/ecotone/exec-engine.md, fjord/exec-engine.md). X Layer runs Fjord and later, so `l1Fee`
 * is Fjord's; Ecotone's is kept for the predeploy's pre-Fjord path and the tests' vectors.
 */
import type { L1FeeParams } from '../domain/op-fee-params.js'
import { flzCompressLength } from './fastlz.js'

/** Fjord's linear regression from FastLZ size to batch-compressed size, scaled by 1e6. */
const FJORD_COST_INTERCEPT = -42_585_600n
const FJORD_COST_FASTLZ_COEF = 836_500n
/** The smallest size (bytes, scaled by 1e6) any transaction is charged for. */
const FJORD_MIN_TX_SIZE_SCALED = 100n * 1_000_000n
/** Bytes the GasPriceOracle adds to an unsigned transaction for its signature. */
const UNSIGNED_TX_SIGNATURE_BYTES = 68
const GAS_PRICE_ORACLE_DECIMALS = 6n

/** The receipt's view of one transaction's L1 fee. */
export interface L1Cost {
  l1Fee: bigint
  /** Fjord: estimated size × 16, the receipt's (deprecated) l1GasUsed. */
  l1GasUsed: bigint
  /** The estimated compressed size, bytes × 1e6. */
  estimatedSizeScaled: bigint
}

/** baseFeeScalar·l1BaseFee·16 + blobBaseFeeScalar·blobBaseFee: the price of one compressed byte, × 1e6. */
function l1FeeScaled(p: L1FeeParams): bigint {
  return p.baseFeeScalar * p.l1BaseFee * 16n + p.blobBaseFeeScalar * p.blobBaseFee
}

/** max(minTransactionSize, intercept + fastlzCoef·fastlzSize), bytes × 1e6. */
export function fjordEstimatedSize(fastlzSize: number | bigint): bigint {
  const size = FJORD_COST_INTERCEPT + FJORD_COST_FASTLZ_COEF * BigInt(fastlzSize)
  return size < FJORD_MIN_TX_SIZE_SCALED ? FJORD_MIN_TX_SIZE_SCALED : size
}

/** estimatedSize · l1FeeScaled / 1e12. */
function fjordL1FeeForSize(estimatedSizeScaled: bigint, p: L1FeeParams): bigint {
  return (estimatedSizeScaled * l1FeeScaled(p)) / 10n ** (GAS_PRICE_ORACLE_DECIMALS * 2n)
}

/** The L1 cost of a signed transaction's EIP-2718 bytes; zero for deposits and empty input (as op-geth). */
export function fjordL1Cost(txBytes: Uint8Array, p: L1FeeParams): L1Cost {
  if (txBytes.length === 0 || txBytes[0] === 0x7e) return { l1Fee: 0n, l1GasUsed: 0n, estimatedSizeScaled: 0n }
  const estimatedSizeScaled = fjordEstimatedSize(flzCompressLength(txBytes))
  const fee = l1FeeScaled(p) === 0n ? 0n : fjordL1FeeForSize(estimatedSizeScaled, p)
  return { l1Fee: fee, l1GasUsed: (estimatedSizeScaled * 16n) / 1_000_000n, estimatedSizeScaled }
}

/** Calldata gas: 4 per zero byte, 16 per other byte (Ecotone's l1GasUsed of signed bytes). */
export function calldataGas(bytes: Uint8Array): bigint {
  let gas = 0n
  for (const b of bytes) gas += b === 0 ? 4n : 16n
  return gas
}

/** Ecotone: calldataGas · l1FeeScaled / 16e6. */
export function ecotoneL1Fee(txBytes: Uint8Array, p: L1FeeParams): bigint {
  if (txBytes.length === 0 || txBytes[0] === 0x7e) return 0n
  return (calldataGas(txBytes) * l1FeeScaled(p)) / (16n * 1_000_000n)
}

/** GasPriceOracle.getL1Fee(unsigned) after Fjord: the FastLZ size of the bytes plus 68 for the missing signature. */
export function oracleL1Fee(unsignedTx: Uint8Array, p: L1FeeParams): bigint {
  return fjordL1FeeForSize(fjordEstimatedSize(flzCompressLength(unsignedTx) + UNSIGNED_TX_SIGNATURE_BYTES), p)
}

/** GasPriceOracle.getL1GasUsed(unsigned) after Fjord: the estimated size × 16. */
export function oracleL1GasUsed(unsignedTx: Uint8Array): bigint {
  return (fjordEstimatedSize(flzCompressLength(unsignedTx) + UNSIGNED_TX_SIGNATURE_BYTES) * 16n) / 1_000_000n
}

/** GasPriceOracle.getL1FeeUpperBound(size): FastLZ's practical worst case, size + size/255 + 16. */
export function oracleL1FeeUpperBound(unsignedTxSize: bigint, p: L1FeeParams): bigint {
  const txSize = unsignedTxSize + BigInt(UNSIGNED_TX_SIGNATURE_BYTES)
  return fjordL1FeeForSize(fjordEstimatedSize(txSize + txSize / 255n + 16n), p)
}
