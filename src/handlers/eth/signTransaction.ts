import { createTxFromRLP } from '@ethereumjs/tx'
import { data } from '../../format/hex.js'
import { formatSignedTransaction } from '../../format/transaction.js'
import { signRequest } from '../dev-accounts.js'
import { parseCallRequest } from '../parse-call-request.js'
import type { Handler } from '../context.js'

/**
 * eth_signTransaction: what eth_sendTransaction would send (the same fill and dev key, signRequest), returned
 * unsent as geth's and execution-apis' `{raw, tx}`. anvil fills the same way but answers `raw` alone; geth
 * fills nothing (gas, fees and nonce must be given). An impersonated address has no key: `unknown account`.
 */
export const eth_signTransaction: Handler<'eth_signTransaction'> = async ([wire], ctx) => {
  const request = parseCallRequest(wire)
  const raw = await signRequest(ctx, request)
  const tx = createTxFromRLP(raw, { common: ctx.common })
  return { raw: data(raw), tx: formatSignedTransaction(tx, tx.getSenderAddress().bytes) }
}
