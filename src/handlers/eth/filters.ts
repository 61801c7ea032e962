/**
 * The polling filters: install, poll for changes, read all logs, uninstall, over the service's filter store
 * (in memory, or shared by every replica through Redis). A filter not polled for FILTER_IDLE_TIMEOUT_MS is
 * gone (-32000 `filter not found`, as geth).
 */
import { FilterNotFoundError } from '../../errors.js'
import { collectLogs } from '../../filters/collect.js'
import { blocksBetween, parseLogFilter, queryLogs, type LogQuery } from '../../filters/query.js'
import { data, type Hex } from '../../format/hex.js'
import { formatLog, type RpcLog } from '../../format/log.js'
import { MAX_QUEUED_HASHES } from '../../limits.js'
import type { HandlerContext, Handler } from '../context.js'

/** The block after the canonical head: where a new filter's first poll starts. */
const nextBlock = async (ctx: HandlerContext) => (await ctx.resolver.blockNumber('latest')) + 1n

export const eth_newFilter: Handler<'eth_newFilter'> = async ([filter], ctx) => {
  parseLogFilter(filter) // refused here, not at the first poll
  return ctx.filters.install({ kind: 'logs', filter: filter ?? {} }, await nextBlock(ctx), ctx.client.ip)
}

export const eth_newBlockFilter: Handler<'eth_newBlockFilter'> = async (_params, ctx) =>
  ctx.filters.install({ kind: 'blocks' }, await nextBlock(ctx), ctx.client.ip)

export const eth_newPendingTransactionFilter: Handler<'eth_newPendingTransactionFilter'> = async (_params, ctx) =>
  ctx.filters.install({ kind: 'pendingTransactions' }, 0n, ctx.client.ip)

export const eth_uninstallFilter: Handler<'eth_uninstallFilter'> = ([id], ctx) => ctx.filters.uninstall(id)

/** Block hashes sealed, transaction hashes accepted, or matching logs of blocks sealed, since the last poll. */
export const eth_getFilterChanges: Handler<'eth_getFilterChanges'> = async ([id], ctx) => {
  const head = await ctx.resolver.blockNumber('latest')
  const { spec, from, hashes, removed } = await ctx.filters.changes(id, head + 1n)
  if (spec.kind === 'pendingTransactions') return hashes
  if (spec.kind === 'blocks') return blockHashes(ctx, from, head)
  // a reorg's removed logs first (removed-logs.ts), as geth delivers them before the new branch's
  return [...removed, ...(await newLogs(ctx, parseLogFilter(spec.filter), from, head))]
}

/** Every log the filter matches now, as eth_getLogs with its criteria would answer. */
export const eth_getFilterLogs: Handler<'eth_getFilterLogs'> = async ([id], ctx) => {
  const spec = await ctx.filters.definition(id)
  if (spec.kind !== 'logs') throw new FilterNotFoundError()
  return (await queryLogs(ctx.resolver, parseLogFilter(spec.filter))).map((log) => formatLog(log))
}

/** Hashes of the canonical blocks from..head, the newest MAX_QUEUED_HASHES of them. */
async function blockHashes(ctx: HandlerContext, from: bigint, head: bigint): Promise<Hex[]> {
  const lower = head - from >= BigInt(MAX_QUEUED_HASHES) ? head - BigInt(MAX_QUEUED_HASHES) + 1n : from
  return (await blocksBetween(ctx.resolver, lower, head)).map((block) => data(block.hash))
}

/**
 * Logs of the canonical blocks from..head, within the filter's bounds. Preconfirmed logs are left out:
 * their block hash changes at sealing, so reporting them here would report them twice.
 */
async function newLogs(ctx: HandlerContext, query: LogQuery, from: bigint, head: bigint): Promise<RpcLog[]> {
  if (query.blockHash) return []
  const lower = typeof query.fromBlock === 'bigint' && query.fromBlock > from ? query.fromBlock : from
  const upper = typeof query.toBlock === 'bigint' && query.toBlock < head ? query.toBlock : head
  if (lower > upper) return []
  // upper <= the canonical head, so every block scanned is canonical
  return collectLogs(await blocksBetween(ctx.resolver, lower, upper), query.criteria).map((log) => formatLog(log))
}
