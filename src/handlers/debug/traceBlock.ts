import type { BlockRecord } from '../../domain/types.js'
import { TraceBlockHashNotFoundError, TraceBlockNotFoundError } from '../../errors.js'
import { data, parseData } from '../../format/hex.js'
import type { BlockTraceResult, TraceConfig, TraceResult } from '../../../generated/types.js'
import { toSelector } from '../block-param.js'
import { traceTarget } from '../trace-target.js'
import type { Handler, HandlerContext } from '../context.js'

/** debug_traceBlockByNumber: every transaction of the block, each as `{txHash, result}`. */
export const debug_traceBlockByNumber: Handler<'debug_traceBlockByNumber'> = async ([number, options], ctx) => {
  const selector = toSelector(number)
  const block = await ctx.resolver.block(selector)
  if (!block) throw new TraceBlockNotFoundError(typeof selector === 'bigint' ? `#${selector}` : String(number))
  return traceBlock(ctx, block, options ?? {})
}

/** debug_traceBlockByHash: as by number; the pending block's hash on /flashblocks too. */
export const debug_traceBlockByHash: Handler<'debug_traceBlockByHash'> = async ([hash, options], ctx) => {
  const block = await ctx.resolver.blockByHash(parseData(hash))
  if (!block) throw new TraceBlockHashNotFoundError(data(parseData(hash)))
  return traceBlock(ctx, block, options ?? {})
}

async function traceBlock(ctx: HandlerContext, block: BlockRecord, options: TraceConfig): Promise<BlockTraceResult> {
  const { txs } = block
  const results = await ctx.execution.trace(
    await traceTarget(ctx, block),
    txs.map((_, i) => i),
    options,
  )
  return results.map((result, i) => ({ txHash: data(txs[i]!.hash), result: result as TraceResult }))
}
