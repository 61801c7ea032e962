/**
 * The JSON-RPC error classes (EIP-1474 / geth codes) every other error extends, and the one mapping from
 * anything thrown to a wire error object: an unexpected exception becomes -32603 without a stack trace.
 */
export type JsonRpcErrorObject = { code: number; message: string; data?: unknown }

export class RpcError extends Error {
  static readonly code: number = -32603
  readonly code: number
  /** HTTP status for a reply that carries only this error (429 for rate limits; 200 otherwise). */
  static readonly httpStatus: number = 200
  readonly data?: unknown

  constructor(message: string, options: { code?: number; data?: unknown } = {}) {
    super(message)
    this.name = new.target.name
    this.code = options.code ?? (new.target as typeof RpcError).code
    if (options.data !== undefined) this.data = options.data
  }

  toJSON(): JsonRpcErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data }
  }
}

/** -32700: the body is not JSON. */
export class ParseError extends RpcError {
  static override readonly code = -32700
  constructor(message = 'parse error') {
    super(message)
  }
}

/** -32600: JSON, but not a JSON-RPC 2.0 request (or a batch over the limit, an empty batch). */
export class InvalidRequestError extends RpcError {
  static override readonly code = -32600
}

/** -32601: not served on this endpoint; geth's wording. */
export class MethodNotFoundError extends RpcError {
  static override readonly code = -32601
  constructor(method: string) {
    super(`the method ${method} does not exist/is not available`)
  }
}

/** -32601 for eth_subscribe/eth_unsubscribe over HTTP; geth's wording (subscriptions need a WebSocket). */
export class NotificationsUnsupportedError extends RpcError {
  static override readonly code = -32601
  static readonly template = 'notifications not supported'
  constructor() {
    super(NotificationsUnsupportedError.template)
  }
}

/** -32601 for an eth_subscribe kind not offered on this endpoint; geth's subscriptionNotFoundError text. */
export class SubscriptionNotFoundError extends RpcError {
  static override readonly code = -32601
  static readonly template = 'no "<kind>" subscription in eth namespace'
  constructor(kind: string) {
    super(`no ${JSON.stringify(kind)} subscription in eth namespace`)
  }
}

/** -32602: a parameter is missing, of the wrong type or out of range; the message names it. */
export class InvalidParamsError extends RpcError {
  static override readonly code = -32602
}

/** -32603: a fault of ours; the message never carries a stack. */
export class InternalError extends RpcError {
  static override readonly code = -32603
  constructor(message = 'internal error') {
    super(message)
  }
}

/** -32000: geth's catch-all for rejected input, e.g. the pool's `nonce too low`. */
export class InvalidInputError extends RpcError {
  static override readonly code = -32000
}

/** -32000 with one of geth's txpool texts, which viem and ethers match by regex. */
export class TransactionRejectedError extends InvalidInputError {}

/** 3: execution reverted with revert data (without any it is ExecutionRevertedEmptyError, -32000, as geth). */
export class ExecutionRevertedError extends RpcError {
  static override readonly code = 3
  static readonly template = 'execution reverted: <reason>'
  readonly revertData: string
  constructor(revertData: string, reason?: string) {
    super(reason ? `execution reverted: ${reason}` : 'execution reverted', { data: revertData })
    this.revertData = revertData
  }
}

/** -32005: a limit was hit (rate, log range, log count, filters, subscriptions). */
export class LimitExceededError extends RpcError {
  static override readonly code = -32005
}

/** -32005 with HTTP 429: the client's request budget for this second is spent. */
export class RateLimitedError extends LimitExceededError {
  static override readonly httpStatus = 429
  readonly retryAfterSeconds: number
  constructor(limit: number, retryAfterSeconds: number) {
    super(`rate limit exceeded: ${limit} requests per second`, { data: { limit, retryAfter: retryAfterSeconds } })
    this.retryAfterSeconds = retryAfterSeconds
  }
}

/** -32002: the call ran past its time limit (eth_call, traces, sendRawTransactionSync). */
export class TimeoutError extends RpcError {
  static override readonly code = -32002
}

/**
 * 4 (EIP-7966): eth_sendRawTransactionSync waited its whole timeout; the transaction stays in the pool, so
 * `data` carries its hash for the client to keep polling.
 */
export class SendSyncTimeoutError extends RpcError {
  static override readonly code = 4
  static readonly template = "the transaction was added to the mempool but wasn't processed within <N> ms"
  constructor(hash: string, timeoutMs: number) {
    super(SendSyncTimeoutError.template.replace('<N>', String(timeoutMs)), { data: hash })
  }
}

/**
 * 6 (EIP-7966): eth_sendRawTransactionSync refused a transaction whose nonce leaves a gap; it was not added
 * to the pool, and `data` carries the nonce the sender's next transaction needs.
 */
export class SendSyncNonceGapError extends RpcError {
  static override readonly code = 6
  static readonly template = 'the transaction was rejected due to a nonce gap: resubmit with the expected nonce'
  constructor(expected: bigint) {
    super(SendSyncNonceGapError.template, { data: `0x${expected.toString(16)}` })
  }
}

/** The one mapping from anything thrown to a JSON-RPC error object. */
export function toJsonRpcError(err: unknown): JsonRpcErrorObject {
  if (err instanceof RpcError) return err.toJSON()
  return new InternalError().toJSON()
}
