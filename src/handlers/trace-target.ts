/**
 * What the debug_trace* handlers hand the tracers: a block, the state root it starts from (its parent's),
 * and its transactions; with geth's errors for what cannot be traced.
 */
import type { BlockRecord } from '../chain/types.js'
import { InvalidInputError } from '../errors.js'
import type { HandlerContext } from './context.js'

export interface TraceTarget {
  block: BlockRecord
  /** The parent block's state root: tracing replays the block's transactions from there. */
  parentStateRoot: Uint8Array
}

export function traceTarget(ctx: HandlerContext, block: BlockRecord): TraceTarget {
  if (block.number === 0n) throw new InvalidInputError('genesis is not traceable')
  const parent = ctx.chain.store.byNumber(block.number - 1n)
  if (!parent) throw new InvalidInputError(`parent block #${block.number - 1n} not found`)
  return { block, parentStateRoot: parent.header.stateRoot }
}
