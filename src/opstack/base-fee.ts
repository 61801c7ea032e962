/**
 * The base fee of the block after `parent`, as op-reth computes it (rust/op-reth/crates/chainspec/src/
 * basefee.rs in okx/optimism 3349a7c, the submodule of okx/xlayer-reth b85080e): EIP-1559 with the
 * denominator and elasticity of the parent's extraData (Holocene), on Jovian's gasMetered
 * max(gasUsed, blobGasUsed), floored at the parent's minBaseFee (Jovian). A parent without those parameters
 * (a plain Ethereum chain from --genesis, a block older than Holocene) uses the chain's own EIP-1559 params.
 */
import type { BlockHeader } from '@ethereumjs/block'
import { gasMetered } from './da-footprint.js'
import { decodeExtraData } from './eip1559-params.js'
import { isOpStackChain } from './op-chain.js'

/** alloy's calc_next_block_base_fee: the EIP-1559 step for one block. */
function eip1559Step(
  gasUsed: bigint,
  gasLimit: bigint,
  baseFee: bigint,
  denominator: bigint,
  elasticity: bigint,
): bigint {
  const target = gasLimit / elasticity
  if (gasUsed === target || target === 0n) return baseFee
  if (gasUsed > target) {
    const delta = (baseFee * (gasUsed - target)) / target / denominator
    return baseFee + (delta > 1n ? delta : 1n)
  }
  const delta = (baseFee * (target - gasUsed)) / target / denominator
  return baseFee > delta ? baseFee - delta : 0n
}

export function nextBaseFee(parent: BlockHeader): bigint {
  const baseFee = parent.baseFeePerGas ?? 0n
  const params = isOpStackChain(parent.common) && parent.extraData.length > 0 ? decodeExtraData(parent.extraData) : ''
  if (typeof params === 'string') {
    const metered = gasMetered(parent)
    if (metered === parent.gasUsed) return parent.calcNextBaseFee()
    const common = parent.common
    return eip1559Step(
      metered,
      parent.gasLimit,
      baseFee,
      common.param('baseFeeMaxChangeDenominator'),
      common.param('elasticityMultiplier'),
    )
  }
  const next = eip1559Step(gasMetered(parent), parent.gasLimit, baseFee, params.denominator, params.elasticity)
  const floor = params.minBaseFee ?? 0n
  return next < floor ? floor : next
}
