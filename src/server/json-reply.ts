/**
 * JSON replies: the header set every one carries (one home for it), the text of a payload (a 500 when a bug of
 * ours put something JSON cannot carry in it), and the writer of the JSON-RPC POSTs' replies, which are answered
 * on node:http's response before fastify (post-listener.ts): every header in one writeHead, the text in one end.
 */
import type { ServerResponse } from 'node:http'
import { InternalError } from '../errors.js'
import { CORS_HEADERS } from './cors.js'
import { failure } from './envelope.js'

/** A JSON reply's headers: CORS (see cors.ts) and the type fastify would complete with the charset. */
export const JSON_HEADERS: Readonly<Record<string, string>> = {
  ...CORS_HEADERS,
  'content-type': 'application/json; charset=utf-8',
}

/**
 * CORS_HEADERS by name and value, for writeHead's flat [name, value, ...] form: writeRaw lists them in an array
 * literal (a spread of a prebuilt array was ~70 ns of a request). The check keeps the two in step.
 */
const [ORIGIN, ORIGIN_VALUE, EXPOSE, EXPOSE_VALUE, ...more] = Object.entries(CORS_HEADERS).flat()
if (EXPOSE_VALUE === undefined || more.length > 0) throw new Error('writeRaw lists the two CORS_HEADERS: update it')
const TYPE_VALUE = JSON_HEADERS['content-type']!

/** The reply to a payload JSON cannot carry (a bigint a handler returned): a bug of ours, not the client's. */
export const UNSERIALISABLE = { status: 500, text: JSON.stringify(failure(null, new InternalError().toJSON())) }

/**
 * `stringify`: JSON.stringify, or one that writes the same text faster for its payloads (responseText).
 * Undefined when the payload cannot be written (`onFault` is told why); the caller answers UNSERIALISABLE.
 */
export function jsonText<T>(
  payload: T,
  onFault: (err: unknown, what: string) => void,
  stringify: (payload: T) => string = JSON.stringify,
): string | undefined {
  try {
    return stringify(payload)
  } catch (err) {
    onFault(err, 'reply is not serialisable')
    return undefined
  }
}

export interface RawReplyOptions {
  /** The reply's own headers (RateLimit-*), written before the common ones. */
  headers?: Readonly<Record<string, string>>
  /** End the connection with this reply (the server is closing, or the body may not have been read). */
  close?: boolean
}

/**
 * Writes a whole reply on node:http's response: `text` as JSON, or undefined for the empty 200 that answers a
 * body of notifications (geth's), which carries no content type.
 */
export function writeRaw(res: ServerResponse, status: number, text: string | undefined, options: RawReplyOptions) {
  const pairs =
    text === undefined
      ? [ORIGIN, ORIGIN_VALUE, EXPOSE, EXPOSE_VALUE, 'content-length', '0']
      : [
          ORIGIN,
          ORIGIN_VALUE,
          EXPOSE,
          EXPOSE_VALUE,
          'content-type',
          TYPE_VALUE,
          'content-length',
          String(Buffer.byteLength(text)),
        ]
  if (options.close) pairs.push('connection', 'close')
  const own = options.headers
  if (own === undefined) res.writeHead(status, pairs)
  else {
    const first: string[] = []
    for (const name in own) first.push(name, own[name]!)
    res.writeHead(status, first.concat(pairs))
  }
  res.end(text)
}
