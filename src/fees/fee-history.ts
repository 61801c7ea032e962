/**
 * eth_feeHistory's computation, as geth's eth/gasprice/feehistory.go: per block its base fee, gas used
 * ratio, blob figures, and for each requested percentile the tip of the transaction at which that share of
 * the block's gas is reached (transactions sorted by tip, weighted by the gas each used); plus the base
 * fees of the block after the newest. Empty blocks report zero rewards.
 */
import type { BlockRecord } from '../domain/types.js'
import { compare, effectiveTips } from './tip-oracle.js'
import { nextBaseFee } from '../opstack/base-fee.js'

export interface FeeHistory {
  oldestBlock: bigint
  baseFeePerGas: bigint[]
  gasUsedRatio: number[]
  baseFeePerBlobGas: bigint[]
  blobGasUsedRatio: number[]
  /** Absent when no percentiles were asked for (geth omits the field). */
  reward?: bigint[][]
}

/** `blocks` in ascending order, oldest first (at least one). */
export function feeHistory(blocks: readonly BlockRecord[], percentiles: readonly number[]): FeeHistory {
  const newest = blocks[blocks.length - 1]!
  const history: FeeHistory = {
    oldestBlock: blocks[0]!.number,
    baseFeePerGas: [...blocks.map((b) => b.header.baseFeePerGas ?? 0n), nextBaseFee(newest.header)],
    gasUsedRatio: blocks.map((b) => ratio(b.header.gasUsed, b.header.gasLimit)),
    baseFeePerBlobGas: [...blocks.map(blobBaseFee), nextBlobBaseFee(newest)],
    // an OP chain has no blob schedule (op-geth answers 0); its blobGasUsed is the Jovian DA footprint
    blobGasUsedRatio: blocks.map(() => 0),
  }
  if (percentiles.length > 0) history.reward = blocks.map((b) => rewards(b, percentiles))
  return history
}

/** geth's processBlock: walk the tip-sorted transactions until the percentile's share of gas is reached. */
function rewards(block: BlockRecord, percentiles: readonly number[]): bigint[] {
  if (block.txs.length === 0) return percentiles.map(() => 0n)
  const tips = effectiveTips(block)
  const sorted = block.receipts
    .map((r, i) => ({ gasUsed: r.gasUsed, tip: tips[i]! }))
    .sort((a, b) => compare(a.tip, b.tip))
  const blockGas = Number(block.header.gasUsed)
  let index = 0
  let sumGas = sorted[0]!.gasUsed
  return percentiles.map((p) => {
    const threshold = BigInt(Math.floor((blockGas * p) / 100))
    while (sumGas < threshold && index < sorted.length - 1) {
      index++
      sumGas += sorted[index]!.gasUsed
    }
    return sorted[index]!.tip
  })
}

function ratio(used: bigint, limit: bigint): number {
  return limit === 0n ? 0 : Number(used) / Number(limit)
}

function blobBaseFee(block: BlockRecord): bigint {
  return block.header.excessBlobGas === undefined ? 0n : block.header.getBlobGasPrice()
}

function nextBlobBaseFee(block: BlockRecord): bigint {
  return block.header.excessBlobGas === undefined ? 0n : block.header.calcNextBlobGasPrice(block.header.common)
}
