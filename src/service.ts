/**
 * startService: config -> (chain) -> fastify app -> listening. Tests everywhere start the real thing
 * with `startService({ port: 0, quiet: true })` and close it afterwards; the CLI is a thin shell on this.
 */
import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import type { Chain } from './chain/chain.js'
import { createChain } from './chain/create-chain.js'
import { installEvmPatches } from './evm/patches/install.js'
import { checkConfig, type Config } from './config.js'
import { handlerContexts } from './handlers/context.js'
import { handlers } from './handlers/index.js'
import { connectFilters } from './filters/service.js'
import { createApp } from './server/app.js'
import { type Answer, handleBody } from './server/jsonrpc.js'
import type { JsonRpcResponse } from './server/envelope.js'
import type { Endpoint } from '../generated/methods.js'
import { registerDocs } from './server/docs.js'
import { registerLivePage } from './server/live.js'
import { registerHealth } from './server/health.js'
import { registerMetrics } from './metrics/routes.js'
import { ServiceMetrics } from './metrics/service-metrics.js'
import type { MetricSources } from './metrics/scraped-metrics.js'
import type { RateLimiter } from './server/rate-limit-window.js'
import { ENDPOINT_PATHS, FEED_PATH } from './server/endpoints.js'
import { consoleRateLimitLogger, createRateLimiter } from './server/rate-limit.js'
import { followerStatus, sequencerStatus } from './feed/peer-status.js'
import { FeedPublisher } from './feed/publisher.js'
import { SubscriptionHub } from './subscriptions/hub.js'
import { connectChain } from './subscriptions/events.js'
import { ALL_KINDS } from './subscriptions/kinds/index.js'
import type { FollowerBackend } from './follower/backend.js'

interface ServiceBase {
  /** http://127.0.0.1:<port>/ (the general endpoint). */
  url: string
  /** http://127.0.0.1:<port>/flashblocks (the preconfirmation endpoint). */
  flashblocksUrl: string
  /** ws://127.0.0.1:<port>/ ; WebSocket on /flashblocks too, raw feed at /ws/flashblocks. */
  wsUrl: string
  config: Config
  app: FastifyInstance
  /** eth_subscribe's subscriptions; `count()` is the leak check of tests and metrics. */
  subscriptions: SubscriptionHub
  /** The raw feed's clients at /ws/flashblocks. */
  feed: FeedPublisher
  /** This instance's Prometheus registry (GET /metrics). */
  metrics: ServiceMetrics
  /**
   * Answers a JSON-RPC body on `endpoint` in process, through the dispatcher a POST goes through (validation,
   * handler, errors), not counted in the metrics nor rate limited: the CLI's warm-up (warm-up.ts).
   */
  answer(endpoint: Endpoint, body: unknown): Answer<JsonRpcResponse | JsonRpcResponse[] | undefined>
  /** Stops accepting, finishes what is in flight, releases everything. Safe to call twice. */
  close(): Promise<void>
}

/** The service over the embedded chain (the default). */
export interface RunningService extends ServiceBase {
  /** The embedded chain. */
  chain: Chain
}

/** The service in follower mode (`upstream` set): the same endpoints over an upstream node and its feed. */
export interface RunningFollower extends ServiceBase {
  follower: FollowerBackend
}

/** The client of answer()'s calls: the process itself. */
const IN_PROCESS = { ip: '127.0.0.1' }

/** The host part of a URL clients can use: a wildcard bind is reached through loopback. */
function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1'
  if (host === '::') return '[::1]'
  return host.includes(':') ? `[${host}]` : host
}

/** Follower mode when `upstream` is set, else the embedded chain: decided here, once. */
export function startService(overrides: Partial<Config> & { upstream: string }): Promise<RunningFollower>
export function startService(overrides?: Partial<Config> & { upstream?: undefined }): Promise<RunningService>
export async function startService(overrides: Partial<Config> = {}): Promise<RunningService | RunningFollower> {
  const checked = checkConfig(overrides)
  // what the EVM floor changes in @ethereumjs, before any EVM is made; a hook that cannot be installed stops here
  await installEvmPatches()
  const follower = checked.upstream ? await connectFollower(checked) : undefined
  const chain = follower ? undefined : await createChain(checked)
  const backend = (follower ?? chain)!
  // a follower serves its upstream's chain id, a --genesis chain its genesis's
  const config = { ...checked, chainId: Number(backend.chainId) }

  // RATE LIMIT: one budget per client IP, in memory or shared through Redis; none at --rate-limit 0 (closed in close())
  const limiter: RateLimiter | undefined =
    config.rateLimit > 0
      ? createRateLimiter({
          perSecond: config.rateLimit,
          redisUrl: config.redisUrl,
          failClosed: config.rateLimitFailClosed,
          logger: consoleRateLimitLogger(config.quiet),
        })
      : undefined

  // WEBSOCKET: the hub and the feed publisher, fed the chain's flashblocks, sealed blocks and pool admissions
  const subscriptions = new SubscriptionHub(ALL_KINDS)
  const feed = new FeedPublisher(config.feedDialect === 'xlayer')
  const disconnectEvents = connectChain({
    events: backend.events,
    hub: subscriptions,
    publisher: feed,
    // the embedded sequencer's last index in a block: one flashblock per interval from the block's start, the
    // seal at the block time (1 s / 200 ms: indexes 0-4); a follower relays its upstream's
    feedStyle: {
      dialect: config.feedDialect,
      targetIndex: follower ? undefined : Math.ceil(config.blockTimeMs / config.flashblockIntervalMs) - 1,
    },
    pendingBlock: () => backend.pending.current()?.block,
    onError: (err, where) => {
      if (!config.quiet) console.warn(`${where} notification failed: ${(err as Error).stack ?? err}`)
    },
  })

  // POLLING FILTERS: one registry for both endpoints, fed by the chain's sealed blocks and pool admissions
  const filters = connectFilters(backend.events, {
    redisUrl: config.redisUrl,
    warn: config.quiet ? undefined : (message) => console.warn(message),
  })
  // X Layer's status methods; this node's feed URL is its peer id, known once it listens
  let feedUrl = ''
  const flashblocksStatus = follower
    ? followerStatus({
        feed: follower.feed,
        applied: () => follower.pendingFeed?.stats.applied ?? 0,
        localPeerId: () => feedUrl,
      })
    : sequencerStatus({ events: backend.events, mining: config.mining, publisher: feed, localPeerId: () => feedUrl })
  const rateLimit = limiter && (() => limiter.metrics())
  const redis = config.redisUrl !== undefined
  const sources: MetricSources = { backend, subscriptions, feed, rateLimit, redis }
  const metrics = new ServiceMetrics(sources)
  const context = handlerContexts(backend, config, filters, flashblocksStatus)
  const app = await createApp({
    config,
    handlers,
    limiter,
    websocket: { hub: subscriptions, publisher: feed },
    context,
    observer: metrics,
  })
  registerMetrics(app, metrics, sources)
  registerDocs(app)
  registerLivePage(app)
  registerHealth(app, () => backend.readiness())
  const release = async () => {
    // stop accepting and drain first, with the chain still running: an in-flight
    // eth_sendRawTransactionSync is waiting for the flashblock that preconfirms it
    await app.close()
    await (chain ?? follower)?.stop()
    disconnectEvents()
    metrics.close()
    await limiter?.close?.()
    await filters.close()
  }
  try {
    // a follower caches the upstream's head before it answers anything
    await follower?.start()
    await app.listen({ host: config.host, port: config.port })
  } catch (err) {
    await release()
    throw err
  }

  if (config.mining) chain?.start()
  const { port } = app.server.address() as AddressInfo
  const origin = `${urlHost(config.host)}:${port}`
  feedUrl = `ws://${origin}${FEED_PATH}`
  let closing: Promise<void> | undefined
  const service: ServiceBase = {
    url: `http://${origin}${ENDPOINT_PATHS.general}`,
    flashblocksUrl: `http://${origin}${ENDPOINT_PATHS.flashblocks}`,
    wsUrl: `ws://${origin}${ENDPOINT_PATHS.general}`,
    config,
    app,
    subscriptions,
    feed,
    metrics,
    answer: (endpoint, body) => handleBody(endpoint, body, context(endpoint, IN_PROCESS), { handlers }),
    close: () => (closing ??= release()),
  }
  return follower ? { ...service, follower } : { ...service, chain: chain! }
}

/** Follower mode's code is loaded only in follower mode (~25 modules the embedded chain never runs). */
async function connectFollower(config: Config): Promise<FollowerBackend> {
  const { FollowerBackend } = await import('./follower/backend.js')
  return FollowerBackend.connect({
    upstream: config.upstream!,
    upstreamFeed: config.upstreamFeed,
    sequencer: config.sequencer,
    idleTimeoutMs: config.flashblocksIdleTimeoutMs,
    sendSyncTimeoutMs: config.sendSyncTimeoutMs,
    evmTimeoutMs: config.evmTimeoutMs,
    upstreamTimeoutMs: config.upstreamTimeoutMs,
    cacheBlocks: config.followerCacheBlocks,
    warn: config.quiet ? undefined : (message) => console.warn(message),
  })
}
