/**
 * The fixed part of generated/client.ts: JSON-RPC over fetch and over `ws`, shared by every document.
 * emit-client.ts adds the per-method part (the typed `RpcMethods` and the list of method names).
 */
import type { Statement } from './ts-project.js'

export const clientTypes: Statement[] = [
  `export type RpcErrorObject = { code: number; message: string; data?: unknown }`,
  `/** A JSON-RPC error answer, thrown by \`request\` and the typed methods. */
export class RpcResponseError extends Error {
  readonly code: number
  readonly data?: unknown

  constructor(error: RpcErrorObject) {
    super(error.message)
    this.name = 'RpcResponseError'
    this.code = error.code
    if (error.data !== undefined) this.data = error.data
  }
}`,
  `/** One entry of a batch, typed by method. */
export type RpcCall = { [M in MethodName]: { method: M; params: Methods[M]['params'] } }[MethodName]`,
  `/** One answer of a batch, in the order of the calls. */
export type RpcOutcome = { result: unknown } | { error: RpcErrorObject }`,
]

export const clientInterfaces: Statement[] = [
  `export interface RpcClient extends RpcMethods {
  request<M extends MethodName>(method: M, params: Methods[M]['params']): Promise<Methods[M]['result']>
  /** Any method and params, unchecked: for testing how the service answers malformed calls. */
  call(method: string, params?: readonly unknown[]): Promise<unknown>
  batch(calls: readonly RpcCall[]): Promise<RpcOutcome[]>
}`,
  `export interface Subscription {
  readonly id: string
  /** The next notification's \`result\`, in arrival order. */
  next(): Promise<unknown>
  unsubscribe(): Promise<boolean>
}`,
  `export interface WsRpcClient extends RpcClient {
  subscribe(kind: string, ...args: unknown[]): Promise<Subscription>
  close(): Promise<void>
}`,
]

export const clientCore: Statement[] = [
  `type Send = (payload: unknown) => Promise<unknown>`,
  `function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}`,
  `function unwrap(reply: unknown): unknown {
  if (!isObject(reply)) throw new Error(\`malformed JSON-RPC reply: \${JSON.stringify(reply)}\`)
  if (isObject(reply.error)) throw new RpcResponseError(reply.error as RpcErrorObject)
  if (!('result' in reply)) throw new Error(\`JSON-RPC reply without result: \${JSON.stringify(reply)}\`)
  return reply.result
}`,
  `/** request, call, batch and one function per method, over any way of sending a payload. */
function createClient(send: Send): RpcClient {
  let nextId = 1
  const call = async (method: string, params: readonly unknown[] = []): Promise<unknown> =>
    unwrap(await send({ jsonrpc: '2.0', id: nextId++, method, params }))
  const batch = async (calls: readonly RpcCall[]): Promise<RpcOutcome[]> => {
    const requests = calls.map((entry) => ({ jsonrpc: '2.0', id: nextId++, method: entry.method, params: entry.params }))
    const reply = await send(requests)
    if (!Array.isArray(reply)) return Promise.reject(isObject(reply) && isObject(reply.error) ? new RpcResponseError(reply.error as RpcErrorObject) : new Error('malformed batch reply'))
    const byId = new Map(reply.filter(isObject).map((item) => [item.id, item]))
    // a batch refused as a whole (e.g. too large) answers with one error
    const refusal = reply.length === 1 && isObject(reply[0]) && isObject(reply[0].error) ? (reply[0].error as RpcErrorObject) : undefined
    if (refusal && requests.length > 1) throw new RpcResponseError(refusal)
    return requests.map((request) => {
      const item = byId.get(request.id)
      if (!item) throw new Error(\`batch reply has no answer for id \${request.id}\`)
      return isObject(item.error) ? { error: item.error as RpcErrorObject } : { result: item.result }
    })
  }
  const client = { call, batch, request: (method: MethodName, params: readonly unknown[]) => call(method, params) } as Record<string, unknown>
  for (const name of methodNames) client[name] = (...params: unknown[]) => call(name, params)
  return client as unknown as RpcClient
}`,
  `/** A client over HTTP POST (one request per call; batches as one array body). */
export function createHttpClient(url: string): RpcClient {
  return createClient(async (payload) => {
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) })
    const text = await response.text()
    try {
      return JSON.parse(text)
    } catch {
      throw new Error(\`HTTP \${response.status} without a JSON body: \${text.slice(0, 200)}\`)
    }
  })
}`,
]

export const wsClient: Statement[] = [
  `type Waiter = { resolve: (value: unknown) => void; reject: (error: Error) => void }`,
  `/** A client over one WebSocket; replies are matched by id, notifications queued per subscription. */
export async function createWsClient(url: string): Promise<WsRpcClient> {
  const socket = new WebSocket(url)
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve())
    socket.once('error', reject)
  })
  const pending = new Map<unknown, Waiter>()
  const queues = new Map<string, { items: unknown[]; waiters: Waiter[] }>()
  let closed: Error | undefined
  const queueOf = (id: string) => {
    let queue = queues.get(id)
    if (!queue) queues.set(id, (queue = { items: [], waiters: [] }))
    return queue
  }
  const settle = (id: unknown, payload: unknown) => {
    // an error with id null (e.g. a rejected batch) answers the oldest request
    const key = id === null || id === undefined ? pending.keys().next().value : id
    const waiter = pending.get(key)
    if (!waiter) return
    pending.delete(key)
    waiter.resolve(payload)
  }
  socket.on('message', (data) => {
    const message: unknown = JSON.parse(String(data))
    if (Array.isArray(message)) return settle(message.find((item) => isObject(item) && item.id != null)?.id, message)
    if (!isObject(message)) return undefined
    if (message.method === 'eth_subscription' && isObject(message.params)) {
      const queue = queueOf(String(message.params.subscription))
      const waiter = queue.waiters.shift()
      return waiter ? waiter.resolve(message.params.result) : queue.items.push(message.params.result)
    }
    return settle(message.id, message)
  })
  socket.on('close', () => {
    closed = new Error('the WebSocket connection is closed')
    for (const waiter of pending.values()) waiter.reject(closed)
    for (const queue of queues.values()) for (const waiter of queue.waiters) waiter.reject(closed)
    pending.clear()
  })
  const client = createClient((payload) => {
    if (closed) return Promise.reject(closed)
    const id = Array.isArray(payload) ? (payload[0] as { id: unknown }).id : (payload as { id: unknown }).id
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject })
      socket.send(JSON.stringify(payload))
    })
  })
  const subscribe = async (kind: string, ...args: unknown[]): Promise<Subscription> => {
    const id = String(await client.call('eth_subscribe', [kind, ...args]))
    const queue = queueOf(id)
    return {
      id,
      next: () => {
        const item = queue.items.shift()
        if (item !== undefined) return Promise.resolve(item)
        if (closed) return Promise.reject(closed)
        return new Promise((resolve, reject) => queue.waiters.push({ resolve, reject }))
      },
      unsubscribe: async () => (await client.call('eth_unsubscribe', [id])) === true,
    }
  }
  const close = () =>
    new Promise<void>((resolve) => {
      if (socket.readyState === WebSocket.CLOSED) return resolve()
      socket.once('close', () => resolve())
      socket.close()
    })
  return Object.assign(client, { subscribe, close })
}`,
]
