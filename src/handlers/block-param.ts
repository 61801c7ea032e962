/**
 * Block parameters at the wire boundary: a tag, a hex number, a block hash, or an EIP-1898 object, turned
 * into the resolver's BlockSelector; and the two ways geth answers a block it does not know (null for
 * block/transaction lookups, -32000 `header not found` for state reads).
 */
import { InvalidInputError } from '../errors.js'
import { parseData, parseQuantity } from '../format/hex.js'
import type { BlockSelector, BlockTag } from '../pending/resolver.js'
import type { BlockRecord } from '../chain/types.js'
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
  return selector === 'pending' || (typeof selector === 'object' && 'blockNumber' in selector && selector.blockNumber === 'pending')
}

/** The block a state method reads at; -32000 `header not found` for a block this endpoint does not know. */
export function stateBlock(ctx: HandlerContext, param: BlockParam | null | undefined): BlockRecord {
  const block = ctx.resolver.block(toSelector(param))
  if (!block) throw new InvalidInputError('header not found')
  return block
}

/** The block a lookup names, or undefined (the handler answers null, as geth). */
export function lookupBlock(ctx: HandlerContext, param: BlockParam | null | undefined): BlockRecord | undefined {
  return ctx.resolver.block(toSelector(param))
}

/** A read-only state view at the block a state method names (throws `header not found` as stateBlock). */
export function stateView(ctx: HandlerContext, param: BlockParam | null | undefined) {
  return ctx.chain.stateAt(stateBlock(ctx, param).header.stateRoot)
}
