/**
 * The block a call runs in: the header's, with a zero base fee when the call pays no fees (geth's NoBaseFee
 * for calls). Built once per header and fee mode, for runTx's path (run.ts) and the plain-call one
 * (fast-call.ts) alike.
 */
import { type Block, createBlock, type BlockHeader } from '@ethereumjs/block'
import type { VM } from '@ethereumjs/vm'
import { callCommon } from '../engine.js'

const blockContexts = new WeakMap<BlockHeader, { paying?: Block; free?: Block }>()

export function blockContext(header: BlockHeader, paysFees: boolean, common: VM['common']): Block {
  let contexts = blockContexts.get(header)
  if (!contexts) blockContexts.set(header, (contexts = {}))
  const key = paysFees ? 'paying' : 'free'
  return (contexts[key] ??= createBlock(
    { header: { ...header.toJSON(), baseFeePerGas: paysFees ? header.baseFeePerGas : 0n } as never },
    { common: callCommon(common), skipConsensusFormatValidation: true },
  ))
}
