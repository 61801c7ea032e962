/**
 * Every error the service answers with, as classes carrying their JSON-RPC code (EIP-1474 / geth).
 * Handlers and the chain throw these; `toJsonRpcError` is the one place that turns anything thrown
 * into a wire error object, so an unexpected exception becomes -32603 without a stack trace. Each named
 * error of openrpc/errors.yaml is the class of the same name + `Error`, whose static `template` is the
 * document's message (errors.test.ts holds the two together).
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
    super('notifications not supported')
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
    super(`the transaction was added to the mempool but wasn't processed within ${timeoutMs} ms`, { data: hash })
  }
}

// ---- geth's named errors (openrpc/errors.yaml), one class each ----

/** A named error whose text never varies: `new HeaderNotFoundError()`. */
function fixed(base: typeof RpcError, template: string) {
  return class extends base {
    static readonly template = template
    constructor() {
      super(template)
    }
  }
}

/** A named error whose text carries values: the document's template, and the class's own constructor. */
function templated(base: typeof RpcError, template: string) {
  return class extends base {
    static readonly template = template
  }
}

export class HeaderNotFoundError extends fixed(InvalidInputError, 'header not found') {}
export class UnknownBlockError extends fixed(InvalidInputError, 'unknown block') {}
export class ExecutionRevertedEmptyError extends fixed(InvalidInputError, 'execution reverted') {}
export class InsufficientFundsForTransferError extends fixed(InvalidInputError, 'insufficient funds for transfer') {}
export class DataAndInputDifferError extends fixed(
  InvalidInputError,
  'both "data" and "input" are set and not equal. Please use "input" to pass transaction call data',
) {}
export class GasPriceAndFeeCapError extends fixed(
  InvalidInputError,
  'both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified',
) {}
export class UnknownAccountError extends fixed(InvalidInputError, 'unknown account') {}
export class FilterNotFoundError extends fixed(InvalidInputError, 'filter not found') {}
export class TraceTransactionNotFoundError extends fixed(InvalidInputError, 'transaction not found') {}
export class GenesisNotTraceableError extends fixed(InvalidInputError, 'genesis is not traceable') {}
// the pool's refusals, which viem and ethers match by regex
export class NonceTooLowError extends fixed(TransactionRejectedError, 'nonce too low') {}
export class InsufficientFundsError extends fixed(
  TransactionRejectedError,
  'insufficient funds for gas * price + value',
) {}
export class IntrinsicGasTooLowError extends fixed(TransactionRejectedError, 'intrinsic gas too low') {}
export class FloorDataGasTooLowError extends fixed(
  TransactionRejectedError,
  'insufficient gas for floor data gas cost',
) {}
export class ExceedsBlockGasLimitError extends fixed(TransactionRejectedError, 'exceeds block gas limit') {}
export class FeeCapTooLowError extends fixed(TransactionRejectedError, 'max fee per gas less than block base fee') {}
export class TipAboveFeeCapError extends fixed(
  TransactionRejectedError,
  'max priority fee per gas higher than max fee per gas',
) {}
export class InvalidChainIdError extends fixed(TransactionRejectedError, 'invalid chain id') {}
export class InvalidSenderError extends fixed(TransactionRejectedError, 'invalid sender') {}
export class SenderNotEoaError extends fixed(TransactionRejectedError, 'sender not an eoa') {}
export class AlreadyKnownError extends fixed(TransactionRejectedError, 'already known') {}
export class ReplacementUnderpricedError extends fixed(
  TransactionRejectedError,
  'replacement transaction underpriced',
) {}
export class TxPoolFullError extends fixed(TransactionRejectedError, 'txpool is full') {}
export class TxTypeNotSupportedError extends fixed(TransactionRejectedError, 'transaction type not supported') {}
export class OversizedDataError extends fixed(TransactionRejectedError, 'oversized data') {}
export class EmptyAuthListError extends fixed(TransactionRejectedError, 'EIP-7702 transaction with empty auth list') {}
export class InvalidBlockRangeError extends fixed(InvalidParamsError, 'invalid block range params') {}
export class BlockHashWithRangeError extends fixed(
  InvalidParamsError,
  'invalid argument 0: cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other',
) {}
export class TooManyTopicsError extends fixed(InvalidParamsError, 'invalid argument 0: exceed max topics') {}
export class FlashblocksFilterRequiredError extends fixed(
  InvalidParamsError,
  'flashblocks subscription requires filter params, no params specified',
) {}
export class TooManySubscribeAddressesError extends fixed(InvalidParamsError, 'too many subscribe addresses') {}

/** The EVM stopped (out of gas, invalid opcode...): geth's text for the reason. */
export class ExecutionFailedError extends templated(
  InvalidInputError,
  'out of gas | invalid opcode | stack limit reached 1024 | invalid jump destination | write protection | ...',
) {}
export class ExecutionTimeoutError extends templated(TimeoutError, 'execution aborted (timeout = 5s)') {
  constructor(ms: number) {
    super(`execution aborted (timeout = ${ms / 1000}s)`)
  }
}
export class GasRequiredExceedsAllowanceError extends templated(
  InvalidInputError,
  'gas required exceeds allowance (<N>)',
) {
  constructor(gas: bigint) {
    super(`gas required exceeds allowance (${gas})`)
  }
}
export class StateAndStateDiffError extends templated(
  InvalidInputError,
  "account <address> has both 'state' and 'stateDiff'",
) {
  constructor(address: string) {
    super(`account ${address} has both 'state' and 'stateDiff'`)
  }
}
export class InvalidTransactionError extends templated(InvalidInputError, 'invalid transaction: <reason>') {
  constructor(reason: string) {
    super(`invalid transaction: ${reason}`)
  }
}
export class ChainIdMismatchError extends templated(
  InvalidInputError,
  "chainId does not match node's (have=<N>, want=<M>)",
) {
  constructor(have: bigint, want: bigint) {
    super(`chainId does not match node's (have=${have}, want=${want})`)
  }
}
export class SendSyncTimeoutTooLongError extends templated(
  InvalidParamsError,
  'time out too long, timeout: <N> ms, max: 6000 ms',
) {
  constructor(ms: number, max: number) {
    super(`time out too long, timeout: ${ms} ms, max: ${max} ms`)
  }
}
export class TooManyFiltersError extends templated(
  LimitExceededError,
  'too many filters installed: at most 100 per client',
) {
  constructor(max: number) {
    super(`too many filters installed: at most ${max} per client`)
  }
}
export class LogRangeTooWideError extends templated(
  LimitExceededError,
  'query exceeds max block range 10000: blocks <from>..<to> span <N>',
) {
  constructor(max: number, from: bigint, to: bigint) {
    super(`query exceeds max block range ${max}: blocks ${from}..${to} span ${to - from + 1n}`)
  }
}
export class TooManyLogsError extends templated(
  LimitExceededError,
  'query returned more than 10000 results (max logs per response); narrow the block range or the filter',
) {
  constructor(max: number) {
    super(`query returned more than ${max} results (max logs per response); narrow the block range or the filter`)
  }
}
export class FeeHistoryBeyondHeadError extends templated(
  InvalidInputError,
  'request beyond head block: requested <N>, head <M>',
) {
  constructor(requested: bigint, head: bigint) {
    super(`request beyond head block: requested ${requested}, head ${head}`)
  }
}
/** `detail`: the out-of-range value, or `#<i-1>:<p> > #<i>:<q>` for percentiles out of order. */
export class InvalidRewardPercentileError extends templated(
  InvalidInputError,
  'invalid reward percentile: #<i-1>:<p> > #<i>:<q>',
) {
  constructor(detail: string) {
    super(`invalid reward percentile: ${detail}`)
  }
}
export class TooManySubscriptionsError extends templated(
  LimitExceededError,
  'too many subscriptions on this connection (max 100)',
) {
  constructor(max: number) {
    super(`too many subscriptions on this connection (max ${max})`)
  }
}
/** `label`: `#<N>` for a number, the parameter as given for a tag. */
export class TraceBlockNotFoundError extends templated(InvalidInputError, 'block #<N> not found') {
  constructor(label: string) {
    super(`block ${label} not found`)
  }
}
export class TraceBlockHashNotFoundError extends templated(InvalidInputError, 'block <hash> not found') {
  constructor(hash: string) {
    super(`block ${hash} not found`)
  }
}

/** The one mapping from anything thrown to a JSON-RPC error object. */
export function toJsonRpcError(err: unknown): JsonRpcErrorObject {
  if (err instanceof RpcError) return err.toJSON()
  return new InternalError().toJSON()
}

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
