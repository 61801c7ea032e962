/**
 * Block parameters at the wire boundary: a tag, a hex number, a block hash, or an EIP-1898 object, turned
 * into the resolver's BlockSelector; and the two ways geth answers a block it does not know (null for
 * block/transaction lookups, -32000 `header not found` for state reads).
 */
import { HeaderNotFoundError } from '../errors.js'
import { parseData, parseQuantity } from '../format/hex.js'
import { andThen, type Eventually } from '../capabilities/eventually.js'
import type { BlockSelector, StateView } from '../capabilities/read.js'
import type { BlockTag } from '../../generated/types.js'
import type { BlockRecord } from '../domain/types.js'
import type { HandlerContext } from './context.js'

/** Any block parameter the OpenRPC document admits (already validated by the generated validators). */
export type BlockParam =
  | string
  | { readonly blockHash: string; readonly requireCanonical?: boolean }
  | { readonly blockNumber: string }

const TAGS: ReadonlySet<string> = new Set<BlockTag>(['latest', 'earliest', 'pending', 'safe', 'finalized'])

/** As geth's BlockNumberOrHash: a 32-byte hex string is a hash, any other hex string a number. */
export function toSelector(param: BlockParam | null | undefined, fallback: BlockTag = 'latest'): BlockSelector {
  if (param == null) return fallback
  if (typeof param === 'string') {
    if (TAGS.has(param)) return param as BlockTag
    if (param.length === 66) return { blockHash: parseData(param) }
    return parseQuantity(param)
  }
  if ('blockHash' in param) {
    return { blockHash: parseData(param.blockHash), requireCanonical: param.requireCanonical ?? false }
  }
  const inner = toSelector(param.blockNumber, fallback)
  return typeof inner === 'string' || typeof inner === 'bigint' ? { blockNumber: inner } : inner
}

/** Whether the selector asks for `pending` (bare or inside an EIP-1898 object). */
export function isPendingSelector(selector: BlockSelector): boolean {
  return (
    selector === 'pending' ||
    (typeof selector === 'object' && 'blockNumber' in selector && selector.blockNumber === 'pending')
  )
}

/** The block a call, estimate or state read runs at; -32000 `header not found` when this endpoint does not know it. */
export function knownBlock(ctx: HandlerContext, selector: BlockSelector): Eventually<BlockRecord> {
  return andThen(ctx.resolver.block(selector), found)
}

function found(block: BlockRecord | undefined): BlockRecord {
  if (!block) throw new HeaderNotFoundError()
  return block
}

/** The block a lookup names, or undefined (the handler answers null, as geth). */
export function lookupBlock(
  ctx: HandlerContext,
  param: BlockParam | null | undefined,
): Eventually<BlockRecord | undefined> {
  return ctx.resolver.block(toSelector(param))
}

/** The state at the block a state method names (throws `header not found` as knownBlock). */
export function stateView(ctx: HandlerContext, param: BlockParam | null | undefined): Eventually<StateView> {
  return andThen(ctx.resolver.state(toSelector(param)), known)
}

function known(view: StateView | undefined): StateView {
  if (!view) throw new HeaderNotFoundError()
  return view
}
