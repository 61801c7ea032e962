import { InvalidInputError } from '../../errors.js'
import { parseData } from '../../format/hex.js'
import { traceTransactionIn } from '../execute.js'
import { traceTarget } from '../trace-target.js'
import type { Handler } from '../context.js'

/**
 * debug_traceTransaction: replays the block up to the transaction and traces it with the chosen tracer
 * (struct logger by default). A preconfirmed transaction is traced in the pending block on /flashblocks.
 */
export const debug_traceTransaction: Handler<'debug_traceTransaction'> = async ([hash, options], ctx) => {
  const located = ctx.resolver.tx(parseData(hash))
  if (!located) throw new InvalidInputError('transaction not found')
  return traceTransactionIn(ctx, traceTarget(ctx, located.block), located.index, options ?? {})
}
