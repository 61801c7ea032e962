/**
 * The one JSON-RPC helper for tests: post a request, a batch or raw bytes to a running service (a URL) or to a
 * listening fastify app (test-app.ts), always over a real socket: the POSTs are answered by the server's own
 * request listener before fastify (src/server/post-listener.ts), which `app.inject` would not reach. An app
 * target's request can come from any loopback address (127.0.0.0/8), for tests of per-client budgets.
 */
import { request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'

type RpcError = { code: number; message: string; data?: unknown }
export type RpcReply = { jsonrpc?: '2.0'; id?: unknown; result?: unknown; error?: RpcError }

export interface PostOptions {
  /** Added to (or replacing) `content-type: application/json`; undefined leaves a header out. */
  headers?: Record<string, string | undefined>
  /** Path for an app target (default `/`); a URL target already names its endpoint. */
  path?: string
  /** The loopback address an app target's request comes from (default 127.0.0.1). */
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
  const headers = Object.fromEntries(
    Object.entries({ 'content-type': 'application/json', ...options.headers }).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    ),
  )
  if (typeof target === 'string') {
    const signal = options.timeoutMs === undefined ? undefined : AbortSignal.timeout(options.timeoutMs)
    const response = await fetch(target, { method: 'POST', headers, body, signal })
    return posted(response.status, Object.fromEntries(response.headers), await response.text())
  }
  return postFrom(target, body, headers, options)
}

/** node:http, which can bind the client's end to another loopback address (fetch cannot). */
function postFrom(app: FastifyInstance, body: string | Buffer, headers: Record<string, string>, options: PostOptions) {
  const { port } = app.server.address() as AddressInfo
  return new Promise<Posted>((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: options.path ?? '/',
        localAddress: options.remoteAddress,
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => {
          const flat = Object.fromEntries(Object.entries(res.headers).map(([name, value]) => [name, String(value)]))
          resolve(posted(res.statusCode ?? 0, flat, Buffer.concat(chunks).toString()))
        })
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(body)
  })
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
