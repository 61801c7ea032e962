import { bytesToHex, toChecksumAddress } from '@ethereumjs/util'
import type { UserTxRecord } from '../../domain/types.js'
import type { Handler } from '../context.js'
import { devNode } from '../dev-node.js'

type Section = readonly { sender: Uint8Array; txs: readonly UserTxRecord[] }[]

/** geth's line: `<to>: <value> wei + <gas> gas × <fee cap> wei`. */
function summary({ tx }: UserTxRecord): string {
  const to = tx.to ? toChecksumAddress(tx.to.toString()) : 'contract creation'
  const price = 'maxFeePerGas' in tx ? tx.maxFeePerGas : (tx as { gasPrice: bigint }).gasPrice
  return `${to}: ${tx.value} wei + ${tx.gasLimit} gas × ${price} wei`
}

/** txpool_inspect: txpool_content as one line per transaction (served with the dev-node methods, as anvil). */
export const txpool_inspect: Handler<'txpool_inspect'> = async (_params, ctx) => {
  devNode(ctx)
  const content = await ctx.submit.poolContent()
  const group = (section: Section) =>
    Object.fromEntries(
      section.map(({ sender, txs }) => [
        toChecksumAddress(bytesToHex(sender)),
        Object.fromEntries(txs.map((record) => [record.tx.nonce.toString(), summary(record)])),
      ]),
    )
  return { pending: group(content.pending), queued: group(content.queued) }
}
