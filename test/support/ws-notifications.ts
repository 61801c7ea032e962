/**
 * eth_subscribe over a plain WebSocket, keeping every notification's result in arrival order: what a client
 * of a subscription sees, `removed: true` logs included, for tests that assert the whole sequence.
 */
import WebSocket from 'ws'
import { until } from './wait-for.js'

export interface Notifications<T> {
  /** Every notification's result so far. */
  readonly seen: T[]
  close(): void
}

export async function subscribe<T = Record<string, unknown>>(
  wsUrl: string,
  params: unknown[],
): Promise<Notifications<T>> {
  const socket = new WebSocket(wsUrl)
  await new Promise((resolve, reject) => {
    socket.once('open', resolve)
    socket.once('error', reject)
  })
  const seen: T[] = []
  let id: string | undefined
  let failure: string | undefined
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString())
    if (message.id === 1) {
      id = message.result
      failure = message.error?.message
    } else if (message.method === 'eth_subscription' && message.params.subscription === id) {
      seen.push(message.params.result)
    }
  })
  socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params }))
  await until(() => id !== undefined || failure !== undefined, `eth_subscribe ${JSON.stringify(params)}`)
  if (failure) throw new Error(`eth_subscribe ${JSON.stringify(params)}: ${failure}`)
  return { seen, close: () => socket.close() }
}
