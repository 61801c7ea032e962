/**
 * A minimal UpstreamRpc over fetch for the follower's tests (the lead swaps in src/follower's real client):
 * one POST per call or batch, counted, so a test can say how many requests a flashblock cost.
 */
import type { UpstreamCall, UpstreamRpc } from '../../src/follower/upstream-rpc.js'

export interface CountingUpstream extends UpstreamRpc {
  /** HTTP requests made so far. */
  requests: number
}

type Reply = { id: number; result?: unknown; error?: { code: number; message: string } }

export function fetchUpstream(url: string): CountingUpstream {
  const post = async (body: unknown): Promise<unknown> => {
    upstream.requests++
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    return res.json()
  }
  const unwrap = (reply: Reply, method: string) => {
    if (reply.error) throw new Error(`${method}: ${reply.error.message} (${reply.error.code})`)
    return reply.result
  }
  const upstream: CountingUpstream = {
    requests: 0,
    async call<T>(method: string, params: readonly unknown[]) {
      return unwrap((await post({ jsonrpc: '2.0', id: 1, method, params })) as Reply, method) as T
    },
    async batch(calls: readonly UpstreamCall[]) {
      if (calls.length === 0) return []
      const replies = (await post(
        calls.map((c, id) => ({ jsonrpc: '2.0', id, method: c.method, params: c.params })),
      )) as Reply[]
      const byId = new Map(replies.map((r) => [r.id, r]))
      return calls.map((c, id) =>
        unwrap(byId.get(id) ?? { id, error: { code: -32603, message: 'no reply' } }, c.method),
      )
    },
  }
  return upstream
}
