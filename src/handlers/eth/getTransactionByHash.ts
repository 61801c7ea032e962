import { data, parseData } from '../../format/hex.js'
import type { Handler } from '../context.js'
import { findTransaction, formatFound } from './tx-lookup.js'

/** eth_getTransactionByHash: canonical, then preconfirmed (on /flashblocks), then waiting (block fields null). */
export const eth_getTransactionByHash: Handler<'eth_getTransactionByHash'> = async ([hash], ctx) => {
  const found = await findTransaction(ctx, parseData(hash))
  return found ? formatFound(found) : null
}

/** eth_getRawTransactionByHash: the EIP-2718 bytes the transaction arrived as; null when unknown. */
export const eth_getRawTransactionByHash: Handler<'eth_getRawTransactionByHash'> = async ([hash], ctx) => {
  const found = await findTransaction(ctx, parseData(hash))
  return found ? data(found.record.raw) : null
}
