/**
 * What the follower needs from its upstream node: JSON-RPC calls with a deadline. The HTTP client in
 * src/follower/upstream-client.ts implements it; the canonical follower, the upstream-backed state and the
 * writes forwarder all take this interface, so tests can point any of them at anvil or at a leader.
 */

/** One request of a batch. */
export interface UpstreamCall {
  readonly method: string
  readonly params: readonly unknown[]
}

export interface UpstreamRpc {
  /** One call; rejects with UpstreamError (unreachable, timeout, or the upstream's own JSON-RPC error). */
  call<T = unknown>(method: string, params: readonly unknown[]): Promise<T>
  /** Many calls in one HTTP request; results in the calls' order; rejects if any item failed. */
  batch(calls: readonly UpstreamCall[]): Promise<unknown[]>
}
