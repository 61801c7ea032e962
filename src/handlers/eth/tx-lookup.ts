/**
 * Finding a transaction by hash for the lookup methods: in a block this endpoint shows (canonical first,
 * then the preconfirmed block on /flashblocks), else as a transaction not yet in a block (the pool, or a
 * preconfirmed one seen from the general endpoint), which geth reports with null block fields.
 */
import type { BlockRecord, TxRecord } from '../../domain/types.js'
import { formatTxInBlock } from '../../format/block.js'
import { formatTransaction, type RpcTransaction } from '../../format/transaction.js'
import type { HandlerContext } from '../context.js'

export type FoundTx = { record: TxRecord; block?: BlockRecord; index?: number }

export async function findTransaction(ctx: HandlerContext, hash: Uint8Array): Promise<FoundTx | undefined> {
  const located = await ctx.resolver.tx(hash)
  if (located) return { record: located.tx, block: located.block, index: located.index }
  const waiting = await ctx.resolver.unsealedTx(hash)
  return waiting ? { record: waiting } : undefined
}

export function formatFound(found: FoundTx): RpcTransaction {
  if (found.block && found.index !== undefined) return formatTxInBlock(found.block, found.index)
  return formatTransaction(found.record.tx, found.record.sender)
}
