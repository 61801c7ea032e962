/**
 * The suggested priority fee (eth_maxPriorityFeePerGas, and the tip in eth_gasPrice), computed as geth's
 * gas price oracle does: the 3 cheapest tips of each of the last 20 blocks (tips under 2 wei ignored), the
 * 60th percentile of those samples, capped at 500 gwei. A block without samples contributes the default
 * tip of 1 gwei (geth contributes its last suggestion, which starts at its default; anvil answers 1 gwei on
 * an idle chain), so an idle chain suggests 1 gwei and a busy one follows what was actually paid.
 */
import { keyOf } from '../domain/block-record.js'
import type { BlockRecord } from '../domain/types.js'
import {
  ORACLE_DEFAULT_TIP,
  ORACLE_BLOCKS,
  ORACLE_SAMPLES_PER_BLOCK,
  ORACLE_PERCENTILE,
  ORACLE_MAX_TIP,
  ORACLE_IGNORE_UNDER,
} from '../limits.js'

/** What a transaction of the block paid above the base fee (receipt's effective price minus base fee); a deposit 0. */
export function effectiveTips(block: BlockRecord): bigint[] {
  const baseFee = block.header.baseFeePerGas ?? 0n
  return block.receipts.map((receipt) =>
    receipt.depositNonce !== undefined ? 0n : receipt.effectiveGasPrice - baseFee,
  )
}

/** The cheapest tips of one block, as geth's getBlockValues (the fee recipient's own transactions skipped). */
function blockSamples(block: BlockRecord): bigint[] {
  const coinbase = keyOf(block.header.coinbase.bytes)
  const tips = effectiveTips(block)
    .map((tip, i) => ({ tip, self: keyOf(block.txs[i]!.sender) === coinbase }))
    .filter((t) => !t.self && t.tip >= ORACLE_IGNORE_UNDER)
    .map((t) => t.tip)
    .sort(compare)
  return tips.slice(0, ORACLE_SAMPLES_PER_BLOCK)
}

/** The suggested tip given the newest block and a way to reach its ancestors. */
export function suggestTip(newest: BlockRecord, byNumber: (n: bigint) => BlockRecord | undefined): bigint {
  const samples: bigint[] = []
  for (let n = newest.number, seen = 0; n >= 0n && seen < ORACLE_BLOCKS; n--, seen++) {
    const block = n === newest.number ? newest : byNumber(n)
    if (!block) break
    const tips = blockSamples(block)
    samples.push(...(tips.length > 0 ? tips : [ORACLE_DEFAULT_TIP]))
  }
  if (samples.length === 0) return ORACLE_DEFAULT_TIP
  samples.sort(compare)
  const tip = samples[Math.floor(((samples.length - 1) * ORACLE_PERCENTILE) / 100)]!
  return tip > ORACLE_MAX_TIP ? ORACLE_MAX_TIP : tip
}

export function compare(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0
}
