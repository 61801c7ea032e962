/** The flags of serving: where the service listens, its per-client limits, its feed and its output. */
import { CONFIG_DEFAULTS as d } from '../defaults.js'
import { type Flag, toggle, value } from './kinds.js'
import { duration, goDuration, integer, list, name, text } from './values.js'
import { formatGoDuration } from '../../format/go-duration.js'

export const SERVING_FLAGS = {
  port: value('port', '<n>', integer, `TCP port (default ${d.port}; 0 picks a free one)`, { short: 'p' }),
  host: value('host', '<address>', text, `interface to listen on (default ${d.host})`),
  'rate-limit': value(
    'rateLimit',
    '<n>',
    integer,
    `requests per second per client IP; 0 turns it off (default ${d.rateLimit})`,
  ),
  'redis-url': value(
    'redisUrl',
    '<url>',
    text,
    'share the rate limit and polling filters between replicas through Redis (redis://host:6379)',
  ),
  'rate-limit-fail-closed': toggle(
    'rateLimitFailClosed',
    true,
    'refuse requests while Redis is unreachable (default: keep serving)',
  ),
  'trusted-proxies': value(
    'trustedProxies',
    '<cidrs>',
    list,
    'comma-separated CIDRs whose X-Forwarded-For / X-Real-IP is believed',
  ),
  'feed-dialect': value(
    'feedDialect',
    '<name>',
    name,
    `how /ws/flashblocks writes flashblocks: xlayer (target_index, an end-of-block message) or base (neither; receipts tagged by type) (default ${d.feedDialect})`,
  ),
  'rpc.send-raw-transaction-sync-timeout': value(
    'sendSyncTimeoutMs',
    '<duration>',
    duration,
    `longest eth_sendRawTransactionSync wait; a requested timeout is clamped to it (6s, 500ms, or seconds; default ${d.sendSyncTimeoutMs / 1000}s)`,
  ),
  'rpc.evmtimeout': value(
    'evmTimeoutMs',
    '<duration>',
    goDuration,
    `time budget of each eth_call, eth_estimateGas, eth_createAccessList and eth_simulateV1 (as geth: 5s, 300ms, 1m30s; 0 = none; default ${formatGoDuration(d.evmTimeoutMs)})`,
  ),
  quiet: toggle('quiet', true, 'print nothing but errors'),
  help: { kind: 'help', help: 'show this text', short: 'h' },
} satisfies Record<string, Flag>
