/** The generated client over HTTP POST: one request per call, a batch as one array body. */
import { createRpcClient, type MethodSignatures, type TypedClient } from './json-rpc.js'

export function createHttpRpcClient<M extends MethodSignatures<M>>(
  url: string,
  methodNames: readonly (keyof M & string)[],
): TypedClient<M> {
  return createRpcClient<M>(async (payload) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    })
    const text = await response.text()
    try {
      return JSON.parse(text)
    } catch {
      throw new Error(`HTTP ${response.status} without a JSON body: ${text.slice(0, 200)}`)
    }
  }, methodNames)
}
