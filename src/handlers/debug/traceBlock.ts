import { InvalidInputError } from '../../errors.js'
import { data, parseData } from '../../format/hex.js'
import { toSelector } from '../block-param.js'
import { traceBlockIn } from '../execute.js'
import { traceTarget } from '../trace-target.js'
import type { Handler } from '../context.js'

/** debug_traceBlockByNumber: every transaction of the block, each as `{txHash, result}`. */
export const debug_traceBlockByNumber: Handler<'debug_traceBlockByNumber'> = async ([number, options], ctx) => {
  const selector = toSelector(number)
  const block = ctx.resolver.block(selector)
  if (!block) throw new InvalidInputError(typeof selector === 'bigint' ? `block #${selector} not found` : `block ${String(number)} not found`)
  return traceBlockIn(ctx, traceTarget(ctx, block), options ?? {})
}

/** debug_traceBlockByHash: as by number; the pending block's hash on /flashblocks too. */
export const debug_traceBlockByHash: Handler<'debug_traceBlockByHash'> = async ([hash, options], ctx) => {
  const block = ctx.resolver.blockByHash(parseData(hash))
  if (!block) throw new InvalidInputError(`block ${data(parseData(hash))} not found`)
  return traceBlockIn(ctx, traceTarget(ctx, block), options ?? {})
}
