/**
 * Which chains follow OP Stack block rules (Jovian's DA footprint in blobGasUsed, its base fee on
 * max(gasUsed, blobGasUsed)). The embedded chain and a follower's chain are named by opStackChainName; a plain
 * Ethereum chain loaded with --genesis keeps its own name, and its blobGasUsed is real blob gas.
 */
import type { Common } from '@ethereumjs/common'

const OP_STACK_NAME_PREFIX = 'xlayer-'

export function opStackChainName(chainId: bigint | number): string {
  return `${OP_STACK_NAME_PREFIX}${chainId}`
}

export function isOpStackChain(common: Common): boolean {
  return common.chainName().startsWith(OP_STACK_NAME_PREFIX)
}
