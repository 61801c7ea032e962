/**
 * Everything fastify would otherwise answer in its own words (415, 413, 404, a thrown hook, a 500) becomes
 * a JSON-RPC error body, so a client always gets something its JSON-RPC library can read, and never a stack.
 * The JSON-RPC POSTs themselves are answered before fastify (post-listener.ts) and refuse the same way.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import {
  BodyTooLargeError,
  InternalError,
  InvalidRequestError,
  RpcError,
  UnsupportedContentTypeError,
  type JsonRpcErrorObject,
} from '../errors.js'
import { MAX_BODY_BYTES } from '../limits.js'
import { closeIfDraining } from './drain.js'
import { failure } from './envelope.js'
import { JSON_HEADERS, jsonText, UNSERIALISABLE } from './json-reply.js'

/** geth's accepted media types; a missing Content-Type is read as JSON, as geth does. */
const JSON_MEDIA_TYPES = new Set(['application/json', 'application/json-rpc', 'application/jsonrequest'])

export function isJsonContentType(header: string | undefined): boolean {
  // what nearly every client sends, answered without splitting and lower-casing it
  if (header === undefined || header === 'application/json') return true
  if (header.trim() === '') return true
  return JSON_MEDIA_TYPES.has(header.split(';')[0]!.trim().toLowerCase())
}

/**
 * Replaces fastify's body parsers with one that refuses what is not JSON and hands JSON on as text: a POST
 * elsewhere than an endpoint is then refused as an endpoint's would be (415 before 404), never by fastify's ajv.
 */
export function installBodyParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: MAX_BODY_BYTES }, (request, body, done) => {
    if (!isJsonContentType(request.headers['content-type'])) done(new UnsupportedContentTypeError(), undefined)
    else done(null, body)
  })
}

export function sendJson<T>(
  reply: FastifyReply,
  statusCode: number,
  payload: T,
  stringify?: (payload: T) => string,
): FastifyReply {
  let text = jsonText(payload, (err, what) => reply.log.error({ err }, what), stringify)
  if (text === undefined) ({ status: statusCode, text } = UNSERIALISABLE)
  closeIfDraining(reply)
  return reply.code(statusCode).headers(JSON_HEADERS).send(text)
}

function errorBody(error: JsonRpcErrorObject) {
  return failure(null, error)
}

function toHttpError(err: FastifyError | RpcError): { statusCode: number; error: JsonRpcErrorObject } {
  if (err instanceof RpcError)
    return { statusCode: (err.constructor as typeof RpcError).httpStatus, error: err.toJSON() }
  if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || err.statusCode === 413)
    return { statusCode: 413, error: new BodyTooLargeError(MAX_BODY_BYTES).toJSON() }
  const status = err.statusCode ?? 500
  // fastify's own 4xx messages describe the request, not our internals, so they are safe to pass on
  if (status >= 400 && status < 500)
    return { statusCode: status, error: new InvalidRequestError(`invalid request: ${err.message}`).toJSON() }
  return { statusCode: 500, error: new InternalError().toJSON() }
}

export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | RpcError, request: FastifyRequest, reply: FastifyReply) => {
    const { statusCode, error } = toHttpError(err)
    if (statusCode >= 500) request.log.error({ err }, 'request failed')
    return sendJson(reply, statusCode, errorBody(error))
  })
  app.setNotFoundHandler((request, reply) => {
    const error = new InvalidRequestError(
      `nothing is served at ${request.method} ${request.url.slice(0, 200)}: POST JSON-RPC to / or /flashblocks`,
    )
    return sendJson(reply, 404, errorBody(error.toJSON()))
  })
}
