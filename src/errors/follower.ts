/** Follower mode's errors: the upstream node's answers, and faults of upstream-backed state and re-execution. */
import { type JsonRpcErrorObject, RpcError } from './rpc-error.js'

// ---- follower mode: the upstream node's answers (src/follower/upstream-client.ts) ----

/** Anything that went wrong asking the upstream node; one of the two classes below. */
export abstract class UpstreamError extends RpcError {}

/**
 * The upstream's own JSON-RPC error, passed through with its code, message and data (so a sequencer's
 * `nonce too low` reaches the client unchanged).
 */
export class UpstreamRpcError extends UpstreamError {
  constructor(error: JsonRpcErrorObject) {
    super(error.message, { code: error.code, data: error.data })
  }
}

/**
 * -32603 naming the upstream and the cause: unreachable, past its deadline, or an answer that is not
 * JSON-RPC. op-reth answers a failed sequencer forward the same way (INTERNAL_ERROR_CODE with the
 * transport error's text).
 */
export class UpstreamUnavailableError extends UpstreamError {
  static override readonly code = -32603
}

// ---- follower (issue 12): faults of upstream-backed state, feed decoding and re-execution ----

/** Upstream-backed state was asked for something it cannot do (a root it cannot compute, an unbalanced journal). */
export class UpstreamStateError extends Error {
  override readonly name = 'UpstreamStateError'
}

/** Re-executing a feed's flashblock on the parent's state did not give what the feed says (the block is dropped). */
export class ReexecutionError extends Error {
  override readonly name = 'ReexecutionError'
}

/** A follower cannot start: its upstream does not answer (the CLI prints the message and exits 1). */
export class FollowerStartError extends Error {
  override readonly name = 'FollowerStartError'
}

/** Fork mode cannot start: --fork-url does not answer, or --fork-block-number is past its head (exit 1, as above). */
export class ForkStartError extends Error {
  override readonly name = 'ForkStartError'
}
