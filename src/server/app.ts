/**
 * The fastify application: CORS (public RPCs are called from browsers), our own body parser and error
 * handlers (JSON-RPC bodies only, never fastify's or a stack), the client IP rule, and both endpoints: their
 * GETs and WebSocket upgrades as routes, their JSON-RPC POSTs answered before fastify (post-listener.ts).
 */
import Fastify, { type FastifyInstance } from 'fastify'
import { devMethodsServed, type Config } from '../config.js'
import type { ClientInfo, HandlerContext } from '../handlers/context.js'
import { MAX_BODY_BYTES } from '../limits.js'
import type { Endpoint } from '../../generated/methods.js'
import type { CallObserver, ServedHandlers } from './jsonrpc.js'
import { createClientIpResolver } from './client-ip.js'
import { installCors } from './cors.js'
import { drainOnClose, isDraining } from './drain.js'
import { ENDPOINTS } from './endpoints.js'
import { installBodyParser, installErrorHandlers } from './http-errors.js'
import { registerGetRoute } from './http.js'
import { answerPostsFirst } from './post-listener.js'
import type { EndpointDeps } from './rpc-post.js'
import type { RequestLimiter } from './throttle.js'
import { installWebSockets, type WebSocketServices } from './websocket.js'

export interface AppOptions {
  config: Config
  handlers: ServedHandlers<HandlerContext>
  /** The handlers' context for one request on one endpoint (service.ts builds it from the backend's capabilities: handlers/context.ts). */
  context: (endpoint: Endpoint, client: ClientInfo) => HandlerContext
  /** Absent or undefined: no rate limiting. */
  limiter?: RequestLimiter
  /** Absent: no WebSocket (JSON-RPC upgrades, subscriptions, raw feed). */
  websocket?: WebSocketServices
  /** Told of every call and rate-limited reply (the service's Prometheus metrics). */
  observer?: CallObserver
}

function noSchemas(): never {
  throw new Error('routes of this service carry no fastify schema; JSON-RPC params are checked by generated/validators')
}

export async function createApp(options: AppOptions): Promise<FastifyInstance> {
  const { config } = options
  const app = Fastify({
    // warnings and faults only (request logs are info): a line per request would drown a terminal at 100 requests/s
    logger: config.quiet ? false : { level: 'warn' },
    // requests log nothing at that level: the app's logger serves them as it is, instead of a pino child made
    // for each request (a tenth of an eth_chainId's CPU when measured: bench/README.md has the figures)
    childLoggerFactory: (logger) => logger,
    bodyLimit: MAX_BODY_BYTES,
    routerOptions: { ignoreTrailingSlash: true },
    // no route carries a fastify schema (the generated validators check JSON-RPC params): without compilers of
    // our own, every Fastify() loads ajv and fast-json-stringify (~50 ms of CPU at a start) for nothing
    schemaController: { compilersFactory: { buildValidator: noSchemas, buildSerializer: noSchemas } },
  })
  installErrorHandlers(app)
  installBodyParser(app)
  drainOnClose(app)
  await installCors(app)

  // X-Forwarded-For / X-Real-IP are believed only from --trusted-proxies; one canonical spelling per address
  const ipOf = createClientIpResolver(config.trustedProxies)
  const deps: EndpointDeps = {
    clientIp: (request) => ipOf(request.socket.remoteAddress, request.headers),
    limiter: options.limiter,
    context: options.context,
    closing: () => isDraining(app.server),
    onFault: (err, what) => app.log.error({ err }, what),
    dispatch: {
      handlers: options.handlers,
      onInternalError: (err, method) => app.log.error({ err, method }, 'handler failed'),
      observer: options.observer,
      devMethods: devMethodsServed(config),
    },
  }
  // WebSocket upgrades share the endpoints' GET routes, so @fastify/websocket is registered before them. It
  // hooks every request of its scope (onRequest, onResponse): a scope of its own keeps the POSTs out of it
  await app.register(async (scope) => {
    const ws = options.websocket
      ? await installWebSockets(scope, {
          ...options.websocket,
          context: deps.context,
          dispatch: deps.dispatch,
          limiter: deps.limiter,
          clientIp: deps.clientIp,
        })
      : undefined
    for (const endpoint of ENDPOINTS) registerGetRoute(scope, endpoint, config, ws?.rpcHandler(endpoint))
  })
  answerPostsFirst(app, deps)
  return app
}
