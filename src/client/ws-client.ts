/**
 * The generated client over one WebSocket: replies are matched by id, `eth_subscription` notifications
 * queued per subscription until `next()` takes them.
 */
import WebSocket from 'ws'
import { createRpcClient, isObject, type MethodSignatures, type TypedClient } from './json-rpc.js'

export interface Subscription {
  readonly id: string
  /** The next notification's `result`, in arrival order. */
  next(): Promise<unknown>
  unsubscribe(): Promise<boolean>
}

/** What a WebSocket client has beyond the HTTP one. */
export interface WsConnection {
  subscribe(kind: string, ...args: unknown[]): Promise<Subscription>
  close(): Promise<void>
}

type Waiter = { resolve: (value: unknown) => void; reject: (error: Error) => void }

export async function createWsRpcClient<M extends MethodSignatures<M>>(
  url: string,
  methodNames: readonly (keyof M & string)[],
): Promise<TypedClient<M> & WsConnection> {
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
  const client = createRpcClient<M>((payload) => {
    if (closed) return Promise.reject(closed)
    const id = Array.isArray(payload) ? (payload[0] as { id: unknown }).id : (payload as { id: unknown }).id
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject })
      socket.send(JSON.stringify(payload))
    })
  }, methodNames)
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
}
