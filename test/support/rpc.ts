/**
 * The one JSON-RPC helper for tests: post a request, a batch or raw bytes either to a running service over a
 * real socket (a URL) or in-process to a fastify app (`app.inject`, which can pose as any remote address), and
 * read back status, headers, text and the parsed reply the same way in both cases.
 */
import type { FastifyInstance } from 'fastify'

type RpcError = { code: number; message: string; data?: unknown }
export type RpcReply = { jsonrpc?: '2.0'; id?: unknown; result?: unknown; error?: RpcError }

export interface PostOptions {
  /** Added to (or replacing) `content-type: application/json`. */
  headers?: Record<string, string>
  /** Path for an app target (default `/`); a URL target already names its endpoint. */
  path?: string
  /** The peer address an app target sees (app targets only; a socket's peer is loopback). */
  remoteAddress?: string
  /** Abort a socket request after this long (default: never). */
  timeoutMs?: number
}

export interface Posted {
  status: number
  /** Lower-case names. */
  headers: Record<string, string>
  text: string
  /** The parsed body; undefined for an empty body (notifications) or one that is not JSON. */
  // biome-ignore lint: replies are checked field by field in tests
  json: any
}

/** A JSON-RPC 2.0 request object. */
export const request = (method: string, params: unknown = [], id: unknown = 1) => ({
  jsonrpc: '2.0' as const,
  id,
  method,
  params,
})

/** `payload` as given when it is a string or bytes (malformed input stays malformed), else as JSON. */
export async function post(
  target: string | FastifyInstance,
  payload: unknown,
  options: PostOptions = {},
): Promise<Posted> {
  const body = typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : JSON.stringify(payload)
  const headers = { 'content-type': 'application/json', ...options.headers }
  if (typeof target === 'string') {
    const signal = options.timeoutMs === undefined ? undefined : AbortSignal.timeout(options.timeoutMs)
    const response = await fetch(target, { method: 'POST', headers, body, signal })
    return posted(response.status, Object.fromEntries(response.headers), await response.text())
  }
  const response = await target.inject({
    method: 'POST',
    url: options.path ?? '/',
    remoteAddress: options.remoteAddress,
    headers,
    payload: body,
  })
  const flat = Object.fromEntries(
    Object.entries(response.headers).map(([name, value]) => [name.toLowerCase(), String(value)]),
  )
  return posted(response.statusCode, flat, response.body)
}

/** One call whose result the caller needs: the result, or an Error naming the method, code and message. */
// biome-ignore lint/suspicious/noExplicitAny: tests and benches read into JSON replies freely; the default keeps them short
export async function call<T = any>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const reply = await rpc(url, method, params)
  if (reply.error) throw new Error(`${method}: ${reply.error.code} ${reply.error.message}`)
  return reply.result as T
}

/** One call on a service URL: the reply object, result or error. */
export async function rpc(url: string, method: string, params: unknown[] = []): Promise<RpcReply> {
  return (await post(url, request(method, params))).json as RpcReply
}

function posted(status: number, headers: Record<string, string>, text: string): Posted {
  let json: unknown
  try {
    json = text === '' ? undefined : JSON.parse(text)
  } catch {
    json = undefined
  }
  return { status, headers, text, json }
}
