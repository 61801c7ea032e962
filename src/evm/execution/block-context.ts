/**
 * The block a call runs in: the header's, with a zero base fee when the call pays no fees (geth's NoBaseFee
 * for calls). Built once per header and fee mode, for runTx's path (run.ts) and the plain-call one
 * (fast-call.ts) alike.
 */
import { type Block, createBlock, type BlockHeader } from '@ethereumjs/block'
import type { VM } from '@ethereumjs/vm'
import { callCommon } from '../chain-common.js'

/** BLOBBASEFEE of an overridden header (block-overrides.ts): no header field holds it (it derives from excessBlobGas). */
const blobBaseFees = new WeakMap<BlockHeader, bigint>()

export function overrideBlobBaseFee(header: BlockHeader, fee: bigint): void {
  blobBaseFees.set(header, fee)
}

const blockContexts = new WeakMap<BlockHeader, { paying?: Block; free?: Block }>()

export function blockContext(header: BlockHeader, paysFees: boolean, common: VM['common']): Block {
  let contexts = blockContexts.get(header)
  if (!contexts) blockContexts.set(header, (contexts = {}))
  const key = paysFees ? 'paying' : 'free'
  const blobBaseFee = blobBaseFees.get(header)
  const block = (contexts[key] ??= createBlock(
    { header: { ...header.toJSON(), baseFeePerGas: paysFees ? header.baseFeePerGas : 0n } as never },
    { common: callCommon(common), skipConsensusFormatValidation: true, freeze: blobBaseFee === undefined },
  ))
  // a call's blobBaseFee override: no header field holds it, BLOBBASEFEE and blob fees read this method
  if (blobBaseFee !== undefined) block.header.getBlobGasPrice = () => blobBaseFee
  return block
}
