import { createTx } from '@ethereumjs/tx'
import { toTxData } from '../../domain/call-request.js'
import { data } from '../../format/hex.js'
import { formatUnsignedTransaction } from '../../format/transaction.js'
import { fillDefaults } from '../fill-defaults.js'
import { parseCallRequest } from '../parse-call-request.js'
import type { Handler } from '../context.js'

const ZERO_ADDRESS = new Uint8Array(20)

/**
 * eth_fillTransaction: what eth_sendTransaction would fill (fill-defaults.ts), returned unsigned for a signer
 * elsewhere, as geth's `{raw, tx}`. Any sender: nothing is signed, so no key is asked for; a request without
 * `from` is filled for the zero address, as geth does (anvil takes its first dev account). The gas is estimated
 * at the fees the request gave, as reth and anvil do, so a sender without funds still gets an answer.
 */
export const eth_fillTransaction: Handler<'eth_fillTransaction'> = async ([wire], ctx) => {
  const request = parseCallRequest(wire)
  const from = request.from ?? ZERO_ADDRESS
  const filled = await fillDefaults(ctx, request, from, 'given')
  const tx = createTx(toTxData(filled), { common: ctx.common })
  return { raw: data(tx.serialize()), tx: formatUnsignedTransaction(tx, from) }
}
