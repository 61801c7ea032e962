import { formatLog } from '../../format/log.js'
import { parseLogFilter, queryLogs } from '../../filters/query.js'
import type { Handler } from '../context.js'

/**
 * eth_getLogs: logs by emitter and topics over a block hash or a range (tags resolved on this endpoint, so
 * a range to `pending` on /flashblocks includes the preconfirmed logs). Limits: MAX_LOG_BLOCK_RANGE blocks,
 * MAX_LOGS_PER_RESPONSE logs, each a -32005 naming itself.
 */
export const eth_getLogs: Handler<'eth_getLogs'> = async ([filter], ctx) =>
  (await queryLogs(ctx.resolver, parseLogFilter(filter))).map((log) => formatLog(log))
