/**
 * JSON-RPC 2.0 envelopes: the wire shapes of a reply, and the check that turns one parsed message into a
 * call or the -32600 it deserves. Transport-free: HTTP and WebSocket both read messages through here.
 */
import {
  InvalidParamsError,
  InvalidRequestError,
  ParseError,
  type JsonRpcErrorObject,
  type RpcError,
} from '../errors.js'

export type JsonRpcId = string | number | null

export interface JsonRpcSuccess {
  jsonrpc: '2.0'
  id: JsonRpcId
  result: unknown
}

export interface JsonRpcFailure {
  jsonrpc: '2.0'
  id: JsonRpcId
  error: JsonRpcErrorObject
}

export type JsonRpcResponse = JsonRpcSuccess | JsonRpcFailure

/** A well-formed request. A notification (no `id` member) is run but gets no reply. */
export interface JsonRpcCall {
  id: JsonRpcId
  notification: boolean
  method: string
  params: unknown[]
}

/** A message that is not a usable request: answered with `error`, even when it lacked an id. */
export interface RejectedMessage {
  id: JsonRpcId
  error: RpcError
  /** A well-formed notification with unusable params: like any notification, it gets no reply. */
  notification?: boolean
}

export function success(id: JsonRpcId, result: unknown): JsonRpcSuccess {
  // JSON-RPC requires the member: a handler that returns nothing answers null
  return { jsonrpc: '2.0', id, result: result === undefined ? null : result }
}

export function failure(id: JsonRpcId, error: JsonRpcErrorObject): JsonRpcFailure {
  return { jsonrpc: '2.0', id, error }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isValidId(value: unknown): value is JsonRpcId {
  return value === null || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))
}

/** The id a reply to this message should carry: its own when usable, else null (JSON-RPC 2.0 section 5). */
export function replyId(message: unknown): JsonRpcId {
  return isRecord(message) && isValidId(message.id) ? message.id : null
}

/** True when the message would be a call that expects a reply (has an `id` member). */
export function expectsReply(message: unknown): boolean {
  return !isRecord(message) || Object.hasOwn(message, 'id')
}

/** Checks one message of a body (or the whole body when it is not a batch). */
export function readCall(message: unknown): JsonRpcCall | RejectedMessage {
  if (!isRecord(message))
    return { id: null, error: new InvalidRequestError('invalid request: expected a JSON-RPC request object') }
  const hasId = Object.hasOwn(message, 'id')
  if (hasId && !isValidId(message.id)) {
    return { id: null, error: new InvalidRequestError('invalid request: id must be a string, a number or null') }
  }
  const id = hasId ? (message.id as JsonRpcId) : null
  if (message.jsonrpc !== '2.0') return { id, error: new InvalidRequestError('invalid request: jsonrpc must be "2.0"') }
  const { method, params } = message
  if (typeof method !== 'string' || method === '') {
    return { id, error: new InvalidRequestError('invalid request: method must be a non-empty string') }
  }
  if (params === undefined || params === null) return { id, notification: !hasId, method, params: [] }
  if (Array.isArray(params)) return { id, notification: !hasId, method, params }
  if (isRecord(params)) {
    // by-name params are valid JSON-RPC, but every method here is by-position (as in geth: "non-array args")
    const error = new InvalidParamsError('invalid params: expected an array of positional params, got an object')
    return { id, error, notification: !hasId }
  }
  return { id, error: new InvalidRequestError('invalid request: params must be an array') }
}

export function isRejected(read: JsonRpcCall | RejectedMessage): read is RejectedMessage {
  return 'error' in read
}

/** The JSON text of every frozen result serialised so far (see responseText). */
const frozenResultText = new WeakMap<object, string>()

function resultText(result: unknown): string | undefined {
  // a string (a quantity, hex data, a hash: most reads' result) is written on its own; the reply object around it
  // was half of JSON.stringify's time
  if (typeof result === 'string') return JSON.stringify(result)
  if (typeof result !== 'object' || result === null || !Object.isFrozen(result)) return undefined
  let text = frozenResultText.get(result)
  if (text === undefined) frozenResultText.set(result, (text = JSON.stringify(result)))
  return text
}

/**
 * JSON.stringify of a reply (one response or a batch's array), with the text of a frozen result kept: a
 * frozen result is shared and never changes (a formatted receipt, polled by every client that sent or
 * watches its transaction), and ~1.6 kB of receipt took ~5 µs to serialise on every request. A string result
 * is put in the envelope's text the same way.
 */
export function responseText(reply: JsonRpcResponse | JsonRpcResponse[]): string {
  if (Array.isArray(reply)) return `[${reply.map(responseText).join(',')}]`
  const text = 'result' in reply ? resultText(reply.result) : undefined
  if (text === undefined) return JSON.stringify(reply)
  // the members in success()'s order, as JSON.stringify writes them
  return `{"jsonrpc":"2.0","id":${JSON.stringify(reply.id)},"result":${text}}`
}

export type ParsedMessage = { body: unknown } | { response: JsonRpcFailure }

/** Parses a body's text; unparsable text becomes the -32700 reply. */
export function parseMessage(text: string): ParsedMessage {
  try {
    return { body: JSON.parse(text) }
  } catch {
    return { response: failure(null, new ParseError('parse error: the body is not valid JSON').toJSON()) }
  }
}
