/**
 * The JSON-RPC core, free of HTTP: a parsed body in, the reply out (one response, an array for a batch, or
 * nothing when every message was a notification). Dispatch goes through the generated method table, so a
 * method not served on the endpoint is -32601, params are checked before any handler runs, and an alias
 * runs its target's handler. Every error leaves through toJsonRpcError, the one mapping.
 */
// the global `performance` is a lazy getter on globalThis (Node 20): a getter call per use, twice per call
import { performance } from 'node:perf_hooks'
import {
  InvalidParamsError,
  InvalidRequestError,
  MethodNotFoundError,
  NotificationsUnsupportedError,
  RpcError,
  toJsonRpcError,
} from '../errors.js'
import { MAX_BATCH_ITEMS } from '../limits.js'
import { lookupMethod, type Endpoint, type MethodHandlers } from '../../generated/methods.js'
import type { ConnectionMethod } from '../handlers/index.js'
import {
  expectsReply,
  failure,
  isRejected,
  readCall,
  replyId,
  success,
  type JsonRpcCall,
  type JsonRpcResponse,
} from './envelope.js'

/** Every method's handler; the connection methods only where a connection supplies them (WebSocket). */
export type ServedHandlers<Ctx> = Omit<MethodHandlers<Ctx>, ConnectionMethod> &
  Partial<Pick<MethodHandlers<Ctx>, ConnectionMethod>>

export interface DispatchOptions<Ctx> {
  handlers: ServedHandlers<Ctx>
  /** True on a WebSocket: eth_subscribe/eth_unsubscribe are served; over HTTP they answer `notifications not supported`. */
  websocket?: boolean
  /** Most items in one batch (default MAX_BATCH_ITEMS). */
  maxBatchItems?: number
  /** Told of every error that is not an RpcError (a fault of ours): the client only sees -32603. */
  onInternalError?: (err: unknown, method: string) => void
  /** Told of every call answered and every rate-limited reply (the Prometheus metrics). */
  observer?: CallObserver
  /** Serve the dev-node methods (x-dev-node); otherwise they are -32601 like any unknown method. */
  devMethods?: boolean
}

export type Transport = 'http' | 'ws'
/** ok: a result; error: a JSON-RPC error the client caused or geth would give; internal: a fault of ours (-32603). */
export type CallOutcome = 'ok' | 'error' | 'internal'

export interface CallObserver {
  /** `method` is the called name when the endpoint serves it, else `unknown` (or `invalid` for a malformed call). */
  call(endpoint: Endpoint, transport: Transport, method: string, outcome: CallOutcome, seconds: number): void
  rateLimited(endpoint: Endpoint, transport: Transport): void
}

type AnyHandler<Ctx> = (params: unknown[], ctx: Ctx) => unknown
type MethodSpec = NonNullable<ReturnType<typeof lookupMethod>>

/** A reply now, or later when a handler waits on something. */
export type Answer<T> = T | Promise<T>

export function isPromise<T>(value: Answer<T>): value is Promise<T> {
  return value instanceof Promise
}

/** The handler's result or promise; an unserved method or bad params throw before any handler runs. */
function dispatch<Ctx>(spec: MethodSpec | undefined, call: JsonRpcCall, ctx: Ctx, opts: DispatchOptions<Ctx>): unknown {
  if (!spec) throw new MethodNotFoundError(call.method)
  if (spec.websocketOnly && !opts.websocket) throw new NotificationsUnsupportedError()
  const problem = spec.checkParams(call.params)
  if (problem !== undefined) throw new InvalidParamsError(problem)
  // every served method has a handler (a compile-time check); the connection methods pass websocketOnly first
  const handler = opts.handlers[spec.target] as AnyHandler<Ctx>
  return handler(call.params, ctx)
}

function observe<Ctx>(
  opts: DispatchOptions<Ctx>,
  endpoint: Endpoint,
  method: string,
  outcome: CallOutcome,
  started: number,
): void {
  opts.observer?.call(endpoint, opts.websocket ? 'ws' : 'http', method, outcome, (performance.now() - started) / 1000)
}

/** A method name is a label only when the endpoint serves it: clients cannot grow the metric without bound. */
function methodLabel(spec: MethodSpec | undefined): string {
  return spec ? spec.name : 'unknown'
}

function succeeded<Ctx>(
  endpoint: Endpoint,
  call: JsonRpcCall,
  spec: MethodSpec | undefined,
  result: unknown,
  started: number,
  opts: DispatchOptions<Ctx>,
): JsonRpcResponse | undefined {
  observe(opts, endpoint, methodLabel(spec), 'ok', started)
  return call.notification ? undefined : success(call.id, result)
}

function failed<Ctx>(
  endpoint: Endpoint,
  call: JsonRpcCall,
  spec: MethodSpec | undefined,
  err: unknown,
  started: number,
  opts: DispatchOptions<Ctx>,
): JsonRpcResponse | undefined {
  const internal = !(err instanceof RpcError)
  if (internal) opts.onInternalError?.(err, call.method)
  observe(opts, endpoint, methodLabel(spec), internal ? 'internal' : 'error', started)
  return call.notification ? undefined : failure(call.id, toJsonRpcError(err))
}

async function settle<Ctx>(
  endpoint: Endpoint,
  call: JsonRpcCall,
  spec: MethodSpec | undefined,
  pending: Promise<unknown>,
  started: number,
  opts: DispatchOptions<Ctx>,
): Promise<JsonRpcResponse | undefined> {
  try {
    return succeeded(endpoint, call, spec, await pending, started, opts)
  } catch (err) {
    return failed(endpoint, call, spec, err, started, opts)
  }
}

/**
 * Runs one message; undefined when it needs no reply (a notification). A handler that answers at once is
 * replied to at once: the promise hops of an all-async path were a measurable part of a cheap call. No
 * closures: this runs per call.
 */
function handleMessage<Ctx>(
  endpoint: Endpoint,
  message: unknown,
  ctx: Ctx,
  opts: DispatchOptions<Ctx>,
): Answer<JsonRpcResponse | undefined> {
  const started = performance.now()
  const read = readCall(message)
  if (isRejected(read)) {
    observe(opts, endpoint, 'invalid', 'error', started)
    return read.notification ? undefined : failure(read.id, read.error.toJSON())
  }
  const found = lookupMethod(endpoint, read.method)
  const spec = found?.devNode && !opts.devMethods ? undefined : found
  let result: unknown
  try {
    result = dispatch(spec, read, ctx, opts)
  } catch (err) {
    return failed(endpoint, read, spec, err, started, opts)
  }
  if (isPromise(result)) return settle(endpoint, read, spec, result, started, opts)
  return succeeded(endpoint, read, spec, result, started, opts)
}

/**
 * Answers a parsed body. Batch items run one after another, in order (as geth does), so a batch that
 * sends a transaction and then reads it sees its own write.
 */
export function handleBody<Ctx>(
  endpoint: Endpoint,
  body: unknown,
  ctx: Ctx,
  opts: DispatchOptions<Ctx>,
): Answer<JsonRpcResponse | JsonRpcResponse[] | undefined> {
  if (!Array.isArray(body)) return handleMessage(endpoint, body, ctx, opts)
  return handleBatch(endpoint, body, ctx, opts)
}

async function handleBatch<Ctx>(
  endpoint: Endpoint,
  body: unknown[],
  ctx: Ctx,
  opts: DispatchOptions<Ctx>,
): Promise<JsonRpcResponse | JsonRpcResponse[] | undefined> {
  if (body.length === 0) return failure(null, new InvalidRequestError('empty batch').toJSON())
  const limit = opts.maxBatchItems ?? MAX_BATCH_ITEMS
  if (body.length > limit) {
    // one error for the whole batch, carrying the first call's id (geth's respondWithBatchTooLarge)
    const first = body.find((message) => expectsReply(message) && replyId(message) !== null)
    return [
      failure(
        first === undefined ? null : replyId(first),
        new InvalidRequestError(`batch too large: at most ${limit} requests per batch`).toJSON(),
      ),
    ]
  }
  const replies: JsonRpcResponse[] = []
  for (const message of body) {
    const answer = handleMessage(endpoint, message, ctx, opts)
    const reply = isPromise(answer) ? await answer : answer
    if (reply) replies.push(reply)
  }
  return replies.length > 0 ? replies : undefined
}

/** How many requests a body counts as for rate limiting: each batch item is one. */
export function requestCount(body: unknown, maxBatchItems = MAX_BATCH_ITEMS): number {
  // an empty or oversized batch is refused without running anything: it costs one
  return Array.isArray(body) && body.length > 0 && body.length <= maxBatchItems ? body.length : 1
}
