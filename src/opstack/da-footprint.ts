/**
 * Jovian's DA footprint block limit (specs/protocol/jovian/exec-engine.md): each non-deposit transaction's
 * estimated compressed size (Fjord's estimate, whole bytes) times L1Block's daFootprintGasScalar. A block's
 * footprint is stored in its header's `blobGasUsed` (OP chains carry no blobs; `excessBlobGas` stays 0), may
 * not exceed its gas limit, and the next base fee is computed from max(gasUsed, blobGasUsed) (base-fee.ts).
 */
import type { BlockHeader } from '@ethereumjs/block'
import { flzCompressLength } from './fastlz.js'
import { isOpStackChain } from './op-chain.js'
import { fjordEstimatedSize } from './l1-fee.js'

/** One transaction's DA usage estimate in bytes (Fjord's estimated size, whole bytes); 0 for a deposit. */
export function daUsageEstimate(txBytes: Uint8Array): bigint {
  if (txBytes.length === 0 || txBytes[0] === 0x7e) return 0n
  return daBytes(fjordEstimatedSize(flzCompressLength(txBytes)))
}

/** Fjord's estimated size (bytes × 1e6) in whole bytes, as op-geth's EstimatedDASize. */
export function daBytes(estimatedSizeScaled: bigint): bigint {
  return estimatedSizeScaled / 1_000_000n
}

/** The block's DA footprint: Σ over non-deposit txs of their DA usage, × daFootprintGasScalar. */
export function daFootprint(txs: Iterable<Uint8Array>, daFootprintGasScalar: bigint): bigint {
  let total = 0n
  for (const tx of txs) total += daUsageEstimate(tx)
  return total * daFootprintGasScalar
}

/** Jovian: what the base fee update meters, the larger of the gas used and the DA footprint. */
export function gasMetered(header: Pick<BlockHeader, 'gasUsed' | 'blobGasUsed' | 'common'>): bigint {
  // on a plain Ethereum chain (--genesis) blobGasUsed is blob gas, metered apart (EIP-4844)
  if (!isOpStackChain(header.common)) return header.gasUsed
  const footprint = header.blobGasUsed ?? 0n
  return footprint > header.gasUsed ? footprint : header.gasUsed
}
