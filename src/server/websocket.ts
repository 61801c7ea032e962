/**
 * WebSocket on the HTTP port: JSON-RPC upgrades on `/` and `/flashblocks` (every HTTP method, batches included,
 * through the same handleBody with the endpoint's context, plus eth_subscribe/eth_unsubscribe), and the raw
 * flashblocks feed on `/ws/flashblocks`. Each connection is a WsConnection: bounded send buffer, keep-alive.
 */
import websocketPlugin, { type WebsocketHandler } from '@fastify/websocket'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { RawData, WebSocket } from 'ws'
import { RpcError, toJsonRpcError } from '../errors.js'
import type { ClientInfo, HandlerContext } from '../handlers/context.js'
import { MAX_BODY_BYTES, SHUTDOWN_GRACE_MS, WS_MAX_BUFFERED_BYTES, WS_PING_INTERVAL_MS } from '../limits.js'
import type { Endpoint, Methods } from '../../generated/methods.js'
import type { FeedPublisher } from '../feed/publisher.js'
import type { SubscriptionHub } from '../subscriptions/hub.js'
import { FEED_PATH } from './endpoints.js'
import { failure, parseMessage, responseText } from './envelope.js'
import { handleBody, requestCount, type DispatchOptions, type ServedHandlers } from './jsonrpc.js'
import type { EndpointDeps } from './rpc-post.js'
import { rateLimitedBody, type RequestLimiter } from './throttle.js'
import { WsConnection } from './ws-connection.js'

/** What service.ts hands the app for WebSocket: the hub and the feed publisher it wires to the chain. */
export interface WebSocketServices {
  hub: SubscriptionHub
  publisher: FeedPublisher
  pingIntervalMs?: number
  maxBufferedBytes?: number
}

export interface WebSocketDeps extends WebSocketServices {
  context(endpoint: Endpoint, client: ClientInfo): HandlerContext
  dispatch: DispatchOptions<HandlerContext>
  limiter?: RequestLimiter
  clientIp: EndpointDeps['clientIp']
}

export interface WebSocketTransport {
  /** The upgrade handler of an endpoint's GET route (the route's plain GET stays the HTTP handler). */
  rpcHandler(endpoint: Endpoint): WebsocketHandler
  /** Open JSON-RPC and feed connections. */
  connections(): number
}

/** Registers @fastify/websocket and the feed route; call before the endpoints' routes are added. */
export async function installWebSockets(app: FastifyInstance, deps: WebSocketDeps): Promise<WebSocketTransport> {
  const live = new Set<WsConnection>()
  const maxBufferedBytes = deps.maxBufferedBytes ?? WS_MAX_BUFFERED_BYTES
  const track = (socket: WebSocket, endpoint: Endpoint, onGone: (c: WsConnection) => void): WsConnection => {
    const hooks = {
      onGone: (c: WsConnection) => {
        live.delete(c)
        onGone(c)
      },
    }
    const connection = new WsConnection(socket, endpoint, hooks, maxBufferedBytes)
    live.add(connection)
    return connection
  }

  // registered before the plugin, so it runs before the plugin's own close (which gives no close code):
  // every client learns the server is going away (1001); a client that never answers the handshake is cut
  let shutdownTimer: NodeJS.Timeout | undefined
  app.addHook('preClose', (done) => {
    const closing = [...live]
    for (const connection of closing) connection.goAway()
    shutdownTimer = setTimeout(() => {
      for (const connection of closing) connection.socket.terminate()
    }, SHUTDOWN_GRACE_MS)
    shutdownTimer.unref()
    done()
  })
  await app.register(websocketPlugin, { options: { maxPayload: MAX_BODY_BYTES } })

  app.get(FEED_PATH, { websocket: true }, (socket, request) => {
    const query = request.query as Record<string, unknown> | undefined
    const connection = track(socket, 'flashblocks', (c) => deps.publisher.remove(c))
    const { remoteAddress, remotePort } = request.socket
    const peer = remoteAddress?.includes(':') ? `[${remoteAddress}]:${remotePort}` : `${remoteAddress}:${remotePort}`
    const framing = query?.format === 'xlayer-reth' ? 'xlayer-reth' : query?.compress === 'brotli' ? 'brotli' : 'json'
    deps.publisher.add(connection, framing, peer)
    // the feed is one-way: whatever a client sends is ignored
  })

  const timer = setInterval(() => {
    for (const connection of live) connection.heartbeat()
  }, deps.pingIntervalMs ?? WS_PING_INTERVAL_MS)
  timer.unref()
  app.addHook('onClose', async () => {
    clearInterval(timer)
    clearTimeout(shutdownTimer)
  })

  return {
    rpcHandler: (endpoint) => (socket, request) => {
      const connection = track(socket, endpoint, (c) => deps.hub.removeSubscriber(c))
      serveRpc(connection, request, endpoint, deps)
    },
    connections: () => live.size,
  }
}

function serveRpc(connection: WsConnection, request: FastifyRequest, endpoint: Endpoint, deps: WebSocketDeps): void {
  const ip = deps.clientIp(request)
  const ctx = deps.context(endpoint, { ip })
  const { hub } = deps
  // eth_subscribe/eth_unsubscribe act on this connection; every other method is the endpoint's handler
  const handlers: ServedHandlers<HandlerContext> = {
    ...deps.dispatch.handlers,
    eth_subscribe: (params) => hub.subscribe(connection, params) as Methods['eth_subscribe']['result'],
    eth_unsubscribe: (params) => hub.unsubscribe(connection, params[0]),
  }
  const dispatch: DispatchOptions<HandlerContext> = { ...deps.dispatch, handlers, websocket: true }

  connection.socket.on('message', (raw) => {
    answer(rawText(raw)).catch((err: unknown) => {
      // handleBody answers every error itself; this is the limiter failing (e.g. Redis while failing closed)
      if (!(err instanceof RpcError)) deps.dispatch.onInternalError?.(err, 'websocket')
      connection.send(JSON.stringify(failure(null, toJsonRpcError(err))))
    })
  })

  async function answer(text: string): Promise<void> {
    const parsed = parseMessage(text)
    if ('response' in parsed) return connection.send(JSON.stringify(parsed.response))
    if (deps.limiter) {
      // each batch item counts, as over HTTP
      const verdict = await deps.limiter.consume(ip, requestCount(parsed.body, dispatch.maxBatchItems))
      if (!verdict.allowed) {
        dispatch.observer?.rateLimited(endpoint, 'ws')
        return connection.send(JSON.stringify(rateLimitedBody(parsed.body, verdict)))
      }
    }
    const reply = await handleBody(endpoint, parsed.body, ctx, dispatch)
    if (reply !== undefined) connection.send(responseText(reply))
  }
}

function rawText(raw: RawData): string {
  if (Array.isArray(raw)) return Buffer.concat(raw).toString('utf8')
  if (raw instanceof ArrayBuffer) return Buffer.from(raw).toString('utf8')
  return raw.toString('utf8')
}
