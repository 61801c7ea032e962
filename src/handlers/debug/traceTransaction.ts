import { TraceTransactionNotFoundError } from '../../errors.js'
import { parseData } from '../../format/hex.js'
import type { TraceResult } from '../../../generated/types.js'
import { traceTarget } from '../trace-target.js'
import type { Handler } from '../context.js'

/**
 * debug_traceTransaction: replays the block up to the transaction and traces it with the chosen tracer
 * (struct logger by default). A preconfirmed transaction is traced in the pending block on /flashblocks.
 */
export const debug_traceTransaction: Handler<'debug_traceTransaction'> = async ([hash, options], ctx) => {
  const located = await ctx.resolver.tx(parseData(hash))
  if (!located) throw new TraceTransactionNotFoundError()
  const [result] = await ctx.execution.trace(await traceTarget(ctx, located.block), [located.index], options ?? {})
  return result as TraceResult
}
