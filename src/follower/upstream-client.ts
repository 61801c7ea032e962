/**
 * UpstreamRpc over HTTP (Node's fetch): every request carries a deadline, so a dead or frozen upstream
 * fails fast with UpstreamUnavailableError instead of hanging a client's request; the upstream's own
 * JSON-RPC errors pass through unchanged as UpstreamRpcError.
 */
import { type JsonRpcErrorObject, UpstreamRpcError, UpstreamUnavailableError } from '../errors.js'
import { UPSTREAM_CALL_TIMEOUT_MS } from '../limits.js'
import type { UpstreamCall, UpstreamRpc } from './upstream-rpc.js'

export interface UpstreamClientOptions {
  /** Deadline of one HTTP request (ms). */
  timeoutMs?: number
}

type Reply = { id?: unknown; result?: unknown; error?: JsonRpcErrorObject }

export class UpstreamClient implements UpstreamRpc {
  readonly url: string
  private readonly timeoutMs: number
  private nextId = 1

  constructor(url: string, options: UpstreamClientOptions = {}) {
    this.url = url
    this.timeoutMs = options.timeoutMs ?? UPSTREAM_CALL_TIMEOUT_MS
  }

  async call<T = unknown>(method: string, params: readonly unknown[]): Promise<T> {
    const id = this.nextId++
    const reply = await this.post({ jsonrpc: '2.0', id, method, params })
    if (Array.isArray(reply) || typeof reply !== 'object' || reply === null)
      throw this.unavailable(`not a JSON-RPC reply to ${method}`)
    return unwrap(reply as Reply, method) as T
  }

  async batch(calls: readonly UpstreamCall[]): Promise<unknown[]> {
    if (calls.length === 0) return []
    const first = this.nextId
    this.nextId += calls.length
    const reply = await this.post(
      calls.map((c, i) => ({ jsonrpc: '2.0', id: first + i, method: c.method, params: c.params })),
    )
    // a node may answer a whole batch with one error object (over its batch limit, say)
    if (!Array.isArray(reply)) {
      const error = (reply as Reply | null)?.error
      if (error && typeof error.code === 'number') throw new UpstreamRpcError(error)
      throw this.unavailable('not a JSON-RPC reply to a batch')
    }
    // replies may come in any order (JSON-RPC 2.0 section 6): match them by id
    const byId = new Map<unknown, Reply>()
    for (const item of reply as Reply[]) if (item && typeof item === 'object') byId.set(item.id, item)
    return calls.map((c, i) => {
      const item = byId.get(first + i)
      if (!item) throw this.unavailable(`no reply to ${c.method} in a batch`)
      return unwrap(item, c.method)
    })
  }

  private async post(body: unknown): Promise<unknown> {
    let response: Response
    let text: string
    try {
      // one signal covers connect, headers and body: a peer that stalls mid-body is cut at the deadline too
      const signal = AbortSignal.timeout(this.timeoutMs)
      response = await fetch(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal,
      })
      text = await response.text()
    } catch (err) {
      throw this.unavailable(describe(err, this.timeoutMs))
    }
    try {
      return JSON.parse(text)
    } catch {
      throw this.unavailable(`HTTP ${response.status}, not JSON: ${text.slice(0, 120)}`)
    }
  }

  private unavailable(cause: string): UpstreamUnavailableError {
    return new UpstreamUnavailableError(`upstream ${this.url} unavailable: ${cause}`)
  }
}

function unwrap(reply: Reply, method: string): unknown {
  if (reply.error && typeof reply.error.code === 'number') throw new UpstreamRpcError(reply.error)
  if (!('result' in reply)) throw new UpstreamUnavailableError(`upstream answered ${method} without result or error`)
  return reply.result
}

/** The cause in words: fetch wraps the socket error (ECONNREFUSED, ...) in `cause`. */
function describe(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } }
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return `no answer within ${timeoutMs} ms`
  const cause = e?.cause
  if (cause?.code) return `${cause.code}${cause.message ? ` (${cause.message})` : ''}`
  return cause?.message ?? e?.message ?? String(err)
}
