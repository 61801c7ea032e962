/**
 * The bridge from handlers to src/chain/execution: resolves the block a call names through this endpoint's
 * resolver and hands the execution functions a request in their terms.
 * PROVISIONAL: the execution module is being written; until it lands, estimation is refused.
 */
import { InternalError, InvalidInputError } from '../errors.js'
import type { BlockSelector } from '../pending/resolver.js'
import type { BlockRecord } from '../chain/types.js'
import type { HandlerContext } from './context.js'
import type { TransactionRequest } from './tx-request.js'

export function executionBlock(ctx: HandlerContext, selector: BlockSelector): BlockRecord {
  const block = ctx.resolver.block(selector)
  if (!block) throw new InvalidInputError('header not found')
  return block
}

export async function estimateGasFor(ctx: HandlerContext, _request: TransactionRequest, selector: BlockSelector): Promise<bigint> {
  executionBlock(ctx, selector)
  throw new InternalError('gas estimation is not available yet')
}
