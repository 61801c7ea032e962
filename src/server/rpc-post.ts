/**
 * POST on an endpoint: one JSON-RPC body in (its text, read by post-listener.ts), one reply out on node:http's
 * response: parse -> rate limit -> handleBody -> write. The JSON-RPC rules themselves live in jsonrpc.ts, shared
 * with the WebSocket transport. A call its handler answers at once is written without a promise in between, with
 * the other replies of its turn of the event loop (reply-batch.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { ClientInfo, HandlerContext } from '../handlers/context.js'
import type { Endpoint } from '../../generated/methods.js'
import { InternalError, RateLimitedError } from '../errors.js'
import { failure, parseMessage, responseText, type JsonRpcResponse, type ParsedMessage } from './envelope.js'
import { handleBody, isPromise, requestCount, type DispatchOptions } from './jsonrpc.js'
import { jsonText, UNSERIALISABLE } from './json-reply.js'
import { writeInTurn } from './reply-batch.js'
import { rateLimitHeaders, rateLimitedBody, type RateVerdict, type RequestLimiter } from './throttle.js'

export interface EndpointDeps {
  dispatch: DispatchOptions<HandlerContext>
  /** Builds the handlers' context for one request on one endpoint. */
  context: (endpoint: Endpoint, client: ClientInfo) => HandlerContext
  limiter?: RequestLimiter
  /** The address a request is charged to (see client-ip.ts). */
  clientIp: (request: Pick<IncomingMessage, 'socket' | 'headers'>) => string
  /** True while the server is closing: replies end their connection. */
  closing: () => boolean
  /** Told of a fault of ours outside any handler (a reply JSON cannot carry, a limiter that threw). */
  onFault: (err: unknown, what: string) => void
}

/** One POST being answered: where its reply goes and what it was sent to. */
interface Post {
  endpoint: Endpoint
  deps: EndpointDeps
  res: ServerResponse
  parsed: ParsedMessage
  ip: string
  headers: Record<string, string> | undefined
}

export function answerPost(
  endpoint: Endpoint,
  deps: EndpointDeps,
  req: IncomingMessage,
  res: ServerResponse,
  text: string,
) {
  const post: Post = { endpoint, deps, res, parsed: parseMessage(text), ip: deps.clientIp(req), headers: undefined }
  const limiter = deps.limiter
  if (limiter === undefined) return answer(post)
  const verdict = limiter.consume(post.ip, 'body' in post.parsed ? requestCount(post.parsed.body) : 1)
  // the in-process limiter answers at once, and so may the call: no promise in between then
  if (!isPromise(verdict)) return judged(post, verdict)
  verdict.then(
    (settled) => judged(post, settled),
    (err) => fault(post, err, 'rate limiter failed'),
  )
}

function judged(post: Post, verdict: RateVerdict) {
  post.headers = rateLimitHeaders(verdict)
  if (verdict.allowed) return answer(post)
  post.deps.dispatch.observer?.rateLimited(post.endpoint, 'http')
  const body = rateLimitedBody('body' in post.parsed ? post.parsed.body : undefined, verdict)
  write(post, RateLimitedError.httpStatus, body)
}

function answer(post: Post) {
  const { parsed, deps } = post
  if ('response' in parsed) return write(post, 200, parsed.response)
  const ctx = deps.context(post.endpoint, { ip: post.ip })
  const response = handleBody(post.endpoint, parsed.body, ctx, deps.dispatch)
  if (!isPromise(response)) return write(post, 200, response)
  response.then(
    (settled) => write(post, 200, settled),
    (err) => fault(post, err, 'request failed'),
  )
}

/** A fault outside every handler (handleBody catches theirs): HTTP 500 with a -32603 body and no stack, as fastify's error handler answers. */
function fault(post: Post, err: unknown, what: string): void {
  post.deps.onFault(err, what)
  write(post, 500, failure(null, new InternalError().toJSON()))
}

/** geth answers a body of notifications (`response` undefined) with an empty 200. */
function write(post: Post, status: number, response: JsonRpcResponse | JsonRpcResponse[] | undefined) {
  const { res, deps } = post
  const options = { headers: post.headers, close: deps.closing() }
  if (response === undefined) return writeInTurn(res, status, undefined, options, deps.onFault)
  const text = jsonText(response, deps.onFault, responseText)
  if (text === undefined) return writeInTurn(res, UNSERIALISABLE.status, UNSERIALISABLE.text, options, deps.onFault)
  writeInTurn(res, status, text, options, deps.onFault)
}
