/**
 * Everything fastify would otherwise answer in its own words (415, 413, 404, a thrown hook, a 500) becomes
 * a JSON-RPC error body, so a client always gets something its JSON-RPC library can read, and never a stack.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { InternalError, InvalidRequestError, type JsonRpcErrorObject, type RpcError } from '../errors.js'
import { MAX_BODY_BYTES } from '../limits.js'
import { CORS_HEADERS } from './cors.js'
import { closeIfDraining } from './drain.js'
import { failure } from './envelope.js'

/** An HTTP-level refusal that still carries a JSON-RPC error for the body. */
class HttpError extends Error {
  readonly statusCode: number
  readonly rpcError: RpcError
  constructor(statusCode: number, rpcError: RpcError) {
    super(rpcError.message)
    this.statusCode = statusCode
    this.rpcError = rpcError
  }
}

/** geth's accepted media types; a missing Content-Type is read as JSON, as geth does. */
const JSON_MEDIA_TYPES = new Set(['application/json', 'application/json-rpc', 'application/jsonrequest'])

function isJsonContentType(header: string | undefined): boolean {
  // what nearly every client sends, answered without splitting and lower-casing it
  if (header === undefined || header === 'application/json') return true
  if (header.trim() === '') return true
  return JSON_MEDIA_TYPES.has(header.split(';')[0]!.trim().toLowerCase())
}

/**
 * Replaces fastify's body parsers with one that hands the raw text to the route: the route parses it, so
 * a -32700 is an ordinary reply and fastify's ajv never sees (or coerces) a request.
 */
export function installBodyParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: MAX_BODY_BYTES }, (request, body, done) => {
    if (!isJsonContentType(request.headers['content-type'])) {
      const error = new InvalidRequestError('invalid content type, only application/json is supported')
      done(new HttpError(415, error), undefined)
      return
    }
    done(null, body)
  })
}

/** A JSON reply's headers, set in one call: CORS (see cors.ts) and the type fastify would complete with the charset. */
const JSON_HEADERS = { ...CORS_HEADERS, 'content-type': 'application/json; charset=utf-8' }

/** `stringify`: JSON.stringify, or one that writes the same text faster for its payloads (responseText). */
export function sendJson<T>(
  reply: FastifyReply,
  statusCode: number,
  payload: T,
  stringify: (payload: T) => string = JSON.stringify,
): FastifyReply {
  let text: string
  try {
    text = stringify(payload)
  } catch (err) {
    // a handler returned something JSON cannot carry (a bigint): a bug of ours, not the client's
    reply.log.error({ err }, 'reply is not serialisable')
    text = JSON.stringify(failure(null, new InternalError().toJSON()))
    statusCode = 500
  }
  closeIfDraining(reply)
  return reply.code(statusCode).headers(JSON_HEADERS).send(text)
}

function errorBody(error: JsonRpcErrorObject) {
  return failure(null, error)
}

function toHttpError(err: FastifyError | HttpError): { statusCode: number; error: JsonRpcErrorObject } {
  if (err instanceof HttpError) return { statusCode: err.statusCode, error: err.rpcError.toJSON() }
  if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || err.statusCode === 413) {
    return {
      statusCode: 413,
      error: new InvalidRequestError(`request body too large: the limit is ${MAX_BODY_BYTES} bytes`).toJSON(),
    }
  }
  const status = err.statusCode ?? 500
  // fastify's own 4xx messages describe the request, not our internals, so they are safe to pass on
  if (status >= 400 && status < 500)
    return { statusCode: status, error: new InvalidRequestError(`invalid request: ${err.message}`).toJSON() }
  return { statusCode: 500, error: new InternalError().toJSON() }
}

export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | HttpError, request: FastifyRequest, reply: FastifyReply) => {
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
