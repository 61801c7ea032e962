/**
 * The HTTP face of an endpoint: `POST` runs JSON-RPC (parse -> rate limit -> handleBody), `GET` describes
 * the endpoint. The JSON-RPC rules themselves live in jsonrpc.ts, shared with the WebSocket transport.
 */
import type { WebsocketHandler } from '@fastify/websocket'
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify'
import type { Config } from '../config.js'
import type { ClientInfo, HandlerContext } from '../handlers/context.js'
import type { Endpoint } from '../../generated/methods.js'
import { RateLimitedError } from '../errors.js'
import { CORS_HEADERS, CORS_IN_REPLY } from './cors.js'
import { describeEndpoint } from './describe.js'
import { ENDPOINT_PATHS } from './endpoints.js'
import { parseMessage, responseText, type JsonRpcResponse, type ParsedMessage } from './envelope.js'
import { sendJson } from './http-errors.js'
import { handleBody, isPromise, requestCount, type Answer, type DispatchOptions } from './jsonrpc.js'
import { LIVE_PAGE, wantsHtml } from './live.js'
import { rateLimitHeaders, rateLimitedBody, type RateVerdict, type RequestLimiter } from './throttle.js'

export interface EndpointDeps {
  config: Config
  dispatch: DispatchOptions<HandlerContext>
  /** Builds the handlers' context for one request on one endpoint. */
  context: (endpoint: Endpoint, client: ClientInfo) => HandlerContext
  limiter?: RequestLimiter
  /** The address a request is charged to (see client-ip.ts). */
  clientIp: (request: FastifyRequest) => string
}

/** POST on an endpoint: one JSON-RPC body in, one reply out (an empty 200 when it held only notifications). */
function postHandler(endpoint: Endpoint, deps: EndpointDeps) {
  // not async: a call its handler answers at once is sent without a promise in between
  return (request: FastifyRequest, reply: FastifyReply): Answer<FastifyReply> => {
    const parsed = parseMessage(typeof request.body === 'string' ? request.body : '')
    const ip = deps.clientIp(request)
    if (deps.limiter) return limitedPost(endpoint, deps, deps.limiter, parsed, ip, reply)
    return answerPost(endpoint, deps, parsed, ip, reply)
  }
}

function limitedPost(
  endpoint: Endpoint,
  deps: EndpointDeps,
  limiter: RequestLimiter,
  parsed: ParsedMessage,
  ip: string,
  reply: FastifyReply,
): Answer<FastifyReply> {
  const verdict = limiter.consume(ip, 'body' in parsed ? requestCount(parsed.body) : 1)
  // the in-process limiter answers at once, and so may the call: no promise in between then
  if (isPromise(verdict)) return verdict.then((settled) => judgedPost(endpoint, deps, parsed, ip, reply, settled))
  return judgedPost(endpoint, deps, parsed, ip, reply, verdict)
}

function judgedPost(
  endpoint: Endpoint,
  deps: EndpointDeps,
  parsed: ParsedMessage,
  ip: string,
  reply: FastifyReply,
  verdict: RateVerdict,
): Answer<FastifyReply> {
  reply.headers(rateLimitHeaders(verdict))
  if (!verdict.allowed) {
    deps.dispatch.observer?.rateLimited(endpoint, 'http')
    return sendJson(
      reply,
      RateLimitedError.httpStatus,
      rateLimitedBody('body' in parsed ? parsed.body : undefined, verdict),
    )
  }
  return answerPost(endpoint, deps, parsed, ip, reply)
}

function answerPost(
  endpoint: Endpoint,
  deps: EndpointDeps,
  parsed: ParsedMessage,
  ip: string,
  reply: FastifyReply,
): Answer<FastifyReply> {
  if ('response' in parsed) return sendJson(reply, 200, parsed.response)
  const ctx = deps.context(endpoint, { ip })
  const response = handleBody(endpoint, parsed.body, ctx, deps.dispatch)
  if (isPromise(response)) return response.then((settled) => sendBody(reply, settled))
  return sendBody(reply, response)
}

function sendBody(reply: FastifyReply, response: JsonRpcResponse | JsonRpcResponse[] | undefined): FastifyReply {
  // geth answers a body of notifications with an empty 200
  if (response === undefined) return reply.code(200).headers(CORS_HEADERS).send()
  return sendJson(reply, 200, response, responseText)
}

/** GET on an endpoint: its JSON description, or on `/` for a browser the live page. */
function getHandler(endpoint: Endpoint, deps: Pick<EndpointDeps, 'config'>): RouteHandlerMethod {
  return async (request, reply) =>
    endpoint === 'general' && wantsHtml(request)
      ? reply.type('text/html; charset=utf-8').send(LIVE_PAGE)
      : sendJson(reply, 200, describeEndpoint(endpoint, deps.config))
}

export function registerPostRoute(app: FastifyInstance, endpoint: Endpoint, deps: EndpointDeps): void {
  app.post(ENDPOINT_PATHS[endpoint], { config: CORS_IN_REPLY }, postHandler(endpoint, deps))
}

/** `wsHandler`: the WebSocket transport's upgrade handler for this endpoint (same path; plain GET stays HTTP). */
export function registerGetRoute(
  app: FastifyInstance,
  endpoint: Endpoint,
  deps: Pick<EndpointDeps, 'config'>,
  wsHandler?: WebsocketHandler,
): void {
  const url = ENDPOINT_PATHS[endpoint]
  app.route({ method: 'GET', url, handler: getHandler(endpoint, deps), ...(wsHandler ? { wsHandler } : {}) })
}
