/**
 * The JSON-RPC POSTs are answered before fastify: node:http's `request` listener takes POST on an endpoint's
 * path, reads the body (at most MAX_BODY_BYTES), checks its type and hands its text to rpc-post.ts. Every other
 * request (GET and HEAD, the live page, docs, metrics, health, preflights, 404s, WebSocket upgrades' GETs, and
 * any request once the server is closing, which fastify answers 503) goes to fastify's own handler. Fastify's
 * routing, request and reply objects, body parser and send were about a quarter of an eth_chainId's CPU
 * (bench/transport-floor.ts, bench/README.md). Refusals keep fastify's statuses, texts and `Connection: close`.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'
import type { FastifyInstance } from 'fastify'
import { BodyTooLargeError, UnsupportedContentTypeError, type RpcError } from '../errors.js'
import type { Endpoint } from '../../generated/methods.js'
import { MAX_BODY_BYTES } from '../limits.js'
import { isDraining } from './drain.js'
import { ENDPOINT_PATHS, ENDPOINTS } from './endpoints.js'
import { failure } from './envelope.js'
import { isJsonContentType } from './http-errors.js'
import { writeRaw } from './json-reply.js'
import { answerPost, type EndpointDeps } from './rpc-post.js'

/** Each endpoint's path, with and without a trailing slash (fastify's ignoreTrailingSlash, kept for the POSTs). */
const POST_PATHS = new Map<string, Endpoint>(
  ENDPOINTS.flatMap((endpoint) => {
    const path = ENDPOINT_PATHS[endpoint]
    return path === '/'
      ? [[path, endpoint]]
      : [
          [path, endpoint],
          [`${path}/`, endpoint],
        ]
  }),
)

/** The endpoint a request's URL names; the query string is not part of the route (as in fastify). */
function endpointAt(url: string | undefined): Endpoint | undefined {
  if (url === undefined) return undefined
  const query = url.indexOf('?')
  return POST_PATHS.get(query < 0 ? url : url.slice(0, query))
}

/** A refused body: the client may still be sending, so the connection ends with the reply (fastify's rule). */
function refuse(res: ServerResponse, error: RpcError): void {
  const status = (error.constructor as typeof RpcError).httpStatus
  writeRaw(res, status, JSON.stringify(failure(null, error.toJSON())), { close: true })
}

/**
 * A POST whose body is being read; the listeners below are shared (a closure per request cost ~2 % under tsx).
 * A body comes in one chunk almost always: `more` is made for a second one only (an array's first push
 * allocated room for 17, ~150 B of a request).
 */
interface Reading extends IncomingMessage {
  [BODY]: {
    endpoint: Endpoint
    deps: EndpointDeps
    res: ServerResponse
    first: Buffer | undefined
    more: Buffer[] | undefined
    length: number
  }
}
const BODY = Symbol('body')

function onData(this: Reading, chunk: Buffer): void {
  const body = this[BODY]
  body.length += chunk.length
  if (body.length <= MAX_BODY_BYTES) {
    if (body.first === undefined) body.first = chunk
    else if (body.more === undefined) body.more = [chunk]
    else body.more.push(chunk)
    return
  }
  // the rest of the body is read and dropped by node:http while the reply closes the connection
  this.removeListener('data', onData)
  this.removeListener('end', onEnd)
  refuse(body.res, new BodyTooLargeError(MAX_BODY_BYTES))
}

function onEnd(this: Reading) {
  const { endpoint, deps, res, first, more, length } = this[BODY]
  if (!isJsonContentType(this.headers['content-type'])) return refuse(res, new UnsupportedContentTypeError())
  const text =
    first === undefined
      ? ''
      : more === undefined
        ? first.toString()
        : Buffer.concat([first, ...more], length).toString()
  answerPost(endpoint, deps, this, res, text)
}

/** Reads the body as fastify's string parser did (bytes counted against the limit, decoded once) and answers it. */
function readBody(endpoint: Endpoint, deps: EndpointDeps, req: IncomingMessage, res: ServerResponse) {
  if (Number(req.headers['content-length']) > MAX_BODY_BYTES) return refuse(res, new BodyTooLargeError(MAX_BODY_BYTES))
  const reading = req as Reading
  reading[BODY] = { endpoint, deps, res, first: undefined, more: undefined, length: 0 }
  // no 'error' listener: a request whose client went away mid-body is destroyed, and node:http emits its error
  // only to listeners (IncomingMessage's _destroy); one more listener a request was a cost for nothing
  reading.on('data', onData)
  reading.on('end', onEnd)
}

/** Puts the JSON-RPC POSTs in front of the app's handler on its HTTP server. Call once, before listen. */
export function answerPostsFirst(app: FastifyInstance, deps: EndpointDeps): void {
  const server = app.server
  const listeners = server.listeners('request')
  if (listeners.length !== 1) throw new Error(`expected fastify's one request listener, found ${listeners.length}`)
  const fastify = listeners[0] as RequestListener
  server.removeListener('request', fastify)
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const endpoint = req.method === 'POST' ? endpointAt(req.url) : undefined
    if (endpoint === undefined || isDraining(server)) return fastify(req, res)
    readBody(endpoint, deps, req, res)
  })
}
