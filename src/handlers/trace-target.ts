/**
 * What the debug_trace* handlers hand the executor: a block and its parent, whose state the replay starts
 * from; with geth's errors for what cannot be traced.
 */
import type { TraceTarget } from '../capabilities/execute.js'
import type { BlockRecord } from '../domain/types.js'
import { GenesisNotTraceableError, InvalidInputError } from '../errors.js'
import type { HandlerContext } from './context.js'

export async function traceTarget(ctx: HandlerContext, block: BlockRecord): Promise<TraceTarget> {
  if (block.number === 0n) throw new GenesisNotTraceableError()
  // the parent of the pending block is canonical, so this is a canonical lookup on either endpoint
  const parent = await ctx.resolver.block(block.number - 1n)
  if (!parent) throw new InvalidInputError(`parent block #${block.number - 1n} not found`)
  return { block, parent }
}
