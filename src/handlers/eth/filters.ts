/**
 * The polling filters: install, poll for changes, read all logs, uninstall. Ids are 16 random bytes; a
 * filter not polled for FILTER_IDLE_TIMEOUT_MS is gone (-32000 `filter not found`, as geth).
 */
import { FilterNotFoundError } from '../../errors.js'
import { collectLogs } from '../../filters/collect.js'
import { blocksBetween, parseLogFilter, queryLogs } from '../../filters/query.js'
import type { LogFilter } from '../../filters/registry.js'
import { formatLog, type RpcLog } from '../../format/log.js'
import type { HandlerContext, Handler } from '../context.js'

export const eth_newFilter: Handler<'eth_newFilter'> = async ([filter], ctx) => {
  const query = parseLogFilter(filter)
  const cursor = (await ctx.resolver.blockNumber('latest')) + 1n
  return ctx.filters.install({ kind: 'logs', ...query, cursor }, ctx.client.ip)
}

export const eth_newBlockFilter: Handler<'eth_newBlockFilter'> = (_params, ctx) =>
  ctx.filters.install({ kind: 'blocks', hashes: [] }, ctx.client.ip)

export const eth_newPendingTransactionFilter: Handler<'eth_newPendingTransactionFilter'> = (_params, ctx) =>
  ctx.filters.install({ kind: 'pendingTransactions', hashes: [] }, ctx.client.ip)

export const eth_uninstallFilter: Handler<'eth_uninstallFilter'> = ([id], ctx) => ctx.filters.uninstall(id)

/** Block hashes sealed, transaction hashes accepted, or matching logs of blocks sealed, since the last poll. */
export const eth_getFilterChanges: Handler<'eth_getFilterChanges'> = ([id], ctx) => {
  const filter = ctx.filters.poll(id)
  if (filter.kind !== 'logs') return ctx.filters.drain(filter)
  return newLogs(ctx, filter)
}

/** Every log the filter matches now, as eth_getLogs with its criteria would answer. */
export const eth_getFilterLogs: Handler<'eth_getFilterLogs'> = async ([id], ctx) => {
  const filter = ctx.filters.poll(id)
  if (filter.kind !== 'logs') throw new FilterNotFoundError()
  return (await queryLogs(ctx.resolver, filter)).map((log) => formatLog(log))
}

/**
 * Logs of the canonical blocks sealed since the last poll, within the filter's bounds. Preconfirmed logs
 * are left out: their block hash changes at sealing, so reporting them here would report them twice.
 */
async function newLogs(ctx: HandlerContext, filter: LogFilter): Promise<RpcLog[]> {
  const head = await ctx.resolver.blockNumber('latest')
  const start = filter.cursor
  // a reorg's removed logs first (removed-logs.ts), as geth delivers them before the new branch's
  const removed = filter.removed ?? []
  filter.removed = undefined
  filter.cursor = head + 1n
  if (filter.blockHash) return removed
  const lower = typeof filter.fromBlock === 'bigint' && filter.fromBlock > start ? filter.fromBlock : start
  const upper = typeof filter.toBlock === 'bigint' && filter.toBlock < head ? filter.toBlock : head
  if (lower > upper) return removed
  // upper <= the canonical head, so every block scanned is canonical
  const added = collectLogs(await blocksBetween(ctx.resolver, lower, upper), filter.criteria)
  return [...removed, ...added.map((log) => formatLog(log))]
}
