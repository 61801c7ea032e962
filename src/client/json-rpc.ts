/**
 * The document-independent part of the generated client (generated/client.ts): JSON-RPC 2.0 requests,
 * batches and one function per method over any way of sending a payload. The generated file supplies
 * the method map and the method names; http-client.ts and ws-client.ts supply the sending.
 */

interface MethodSignature {
  params: readonly unknown[]
  result: unknown
}

/** A map from method name to its positional params and result, such as generated/methods.ts's `Methods`. */
export type MethodSignatures<M> = { [K in keyof M]: MethodSignature }

export type RpcErrorObject = { code: number; message: string; data?: unknown }

/** A JSON-RPC error answer, thrown by `request` and the typed methods. */
export class RpcResponseError extends Error {
  readonly code: number
  readonly data?: unknown

  constructor(error: RpcErrorObject) {
    super(error.message)
    this.name = 'RpcResponseError'
    this.code = error.code
    if (error.data !== undefined) this.data = error.data
  }
}

/** One entry of a batch, typed by method. */
export type RpcCallOf<M extends MethodSignatures<M>> = {
  [K in keyof M & string]: { method: K; params: M[K]['params'] }
}[keyof M & string]

/** One answer of a batch, in the order of the calls. */
export type RpcOutcome = { result: unknown } | { error: RpcErrorObject }

export interface JsonRpcClient<M extends MethodSignatures<M>> {
  request<K extends keyof M & string>(method: K, params: M[K]['params']): Promise<M[K]['result']>
  /** Any method and params, unchecked: for testing how the service answers malformed calls. */
  call(method: string, params?: readonly unknown[]): Promise<unknown>
  batch(calls: readonly RpcCallOf<M>[]): Promise<RpcOutcome[]>
}

/** One function per method: `client.eth_getBalance(address, block)`. */
type TypedMethods<M extends MethodSignatures<M>> = {
  [K in keyof M]: (...params: M[K]['params']) => Promise<M[K]['result']>
}

export type TypedClient<M extends MethodSignatures<M>> = JsonRpcClient<M> & TypedMethods<M>

/** Sends one request or one batch and resolves with the parsed reply. */
export type Send = (payload: unknown) => Promise<unknown>

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function unwrap(reply: unknown): unknown {
  if (!isObject(reply)) throw new Error(`malformed JSON-RPC reply: ${JSON.stringify(reply)}`)
  if (isObject(reply.error)) throw new RpcResponseError(reply.error as RpcErrorObject)
  if (!('result' in reply)) throw new Error(`JSON-RPC reply without result: ${JSON.stringify(reply)}`)
  return reply.result
}

/** request, call, batch and one function per named method, over `send`. */
export function createRpcClient<M extends MethodSignatures<M>>(
  send: Send,
  methodNames: readonly (keyof M & string)[],
): TypedClient<M> {
  let nextId = 1
  const call = async (method: string, params: readonly unknown[] = []): Promise<unknown> =>
    unwrap(await send({ jsonrpc: '2.0', id: nextId++, method, params }))
  const batch = async (calls: readonly { method: string; params: readonly unknown[] }[]): Promise<RpcOutcome[]> => {
    const requests = calls.map((entry) => ({
      jsonrpc: '2.0',
      id: nextId++,
      method: entry.method,
      params: entry.params,
    }))
    const reply = await send(requests)
    if (!Array.isArray(reply))
      return Promise.reject(
        isObject(reply) && isObject(reply.error)
          ? new RpcResponseError(reply.error as RpcErrorObject)
          : new Error('malformed batch reply'),
      )
    const byId = new Map(reply.filter(isObject).map((item) => [item.id, item]))
    // a batch refused as a whole (e.g. too large) answers with one error
    const refusal =
      reply.length === 1 && isObject(reply[0]) && isObject(reply[0].error)
        ? (reply[0].error as RpcErrorObject)
        : undefined
    if (refusal && requests.length > 1) throw new RpcResponseError(refusal)
    return requests.map((request) => {
      const item = byId.get(request.id)
      if (!item) throw new Error(`batch reply has no answer for id ${request.id}`)
      return isObject(item.error) ? { error: item.error as RpcErrorObject } : { result: item.result }
    })
  }
  const client: Record<string, unknown> = {
    call,
    batch,
    request: (method: string, params: readonly unknown[]) => call(method, params),
  }
  for (const name of methodNames) client[name] = (...params: unknown[]) => call(name, params)
  return client as TypedClient<M>
}
