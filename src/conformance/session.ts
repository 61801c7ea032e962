/**
 * Runs conformance cases (generated/conformance.ts) against any node: the call on the case's endpoint and
 * transport, then the verdict. A result must match the method's result schema, and equal the example's
 * result where the document marks it reproducible. An error fails the case, except when the example is
 * chain-specific and the node says the object it names is not there: that case is skipped, since the
 * node is simply another chain.
 */
import { isDeepStrictEqual } from 'node:util'
import {
  createHttpClient,
  createWsClient,
  RpcResponseError,
  type RpcClient,
  type WsRpcClient,
} from '../../generated/client.js'
import * as validators from '../../generated/validators.js'
import type { Endpoint } from '../rpc/method-table.js'
import type { Validator } from '../validation/check-params.js'
import { describeValidationErrors } from '../validation/describe-error.js'
import type { ConformanceCase } from './case.js'
import { wsUrlOf } from '../client/ws-url.js'

export type Urls = { general?: string; flashblocks?: string }

export interface Outcome {
  status: 'passed' | 'failed' | 'skipped'
  /** Why it failed or was skipped. */
  reason?: string
}

/** Longest wait for one answer; eth_sendRawTransactionSync alone may take 6 s. */
const CALL_TIMEOUT_MS = 15_000

const NOT_FOUND = /not found|unknown (block|transaction)/i
const METHOD_NOT_FOUND = -32601

function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer to ${what} within ${CALL_TIMEOUT_MS / 1000} s`)),
      CALL_TIMEOUT_MS,
    )
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

function shown(value: unknown): string {
  const json = JSON.stringify(value) ?? String(value)
  return json.length > 160 ? `${json.slice(0, 157)}...` : json
}

/** Hex is compared without regard to case (checksummed and lower-case addresses are the same address). */
function normalized(value: unknown): unknown {
  if (typeof value === 'string') return /^0x[0-9a-fA-F]*$/.test(value) ? value.toLowerCase() : value
  if (Array.isArray(value)) return value.map(normalized)
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalized(v)]))
  return value
}

/** The reason a result is wrong, or undefined when it is right. */
function judgeResult(c: ConformanceCase, result: unknown): string | undefined {
  const validate = (validators as unknown as Record<string, Validator | undefined>)[c.resultValidator]
  if (!validate) return `no result validator ${c.resultValidator} in generated/validators.js`
  if (!validate(result))
    return `result does not match the result schema: ${describeValidationErrors(validate.errors)}; got ${shown(result)}`
  if ('expected' in c && !isDeepStrictEqual(normalized(result), normalized(c.expected))) {
    return `expected ${shown(c.expected)}, got ${shown(result)}`
  }
  return undefined
}

export class ConformanceSession {
  private readonly http = new Map<Endpoint, RpcClient>()
  private readonly sockets = new Map<Endpoint, Promise<WsRpcClient>>()

  constructor(private readonly urls: Urls) {}

  private client(c: ConformanceCase, url: string): Promise<RpcClient> {
    if (!c.websocket) {
      let client = this.http.get(c.endpoint)
      if (!client) this.http.set(c.endpoint, (client = createHttpClient(url)))
      return Promise.resolve(client)
    }
    let socket = this.sockets.get(c.endpoint)
    if (!socket) {
      socket = createWsClient(wsUrlOf(url))
      socket.catch(() => this.sockets.delete(c.endpoint))
      this.sockets.set(c.endpoint, socket)
    }
    return socket
  }

  async run(c: ConformanceCase): Promise<Outcome> {
    const url = this.urls[c.endpoint]
    if (!url)
      return { status: 'skipped', reason: `no ${c.endpoint === 'flashblocks' ? '--flashblocks-url' : '--url'} given` }
    let client: RpcClient
    try {
      client = await this.client(c, url)
    } catch (err) {
      return { status: 'failed', reason: `cannot connect over WebSocket: ${(err as Error).message}` }
    }
    const params = [...c.params]
    if (c.setup) {
      try {
        params[0] = await withTimeout(client.call(c.setup.method, c.setup.params), c.setup.method)
      } catch (err) {
        return { status: 'failed', reason: `setup ${c.setup.method} failed: ${errorText(err)}` }
      }
    }
    let result: unknown
    try {
      result = await withTimeout(client.call(c.method, params), c.method)
    } catch (err) {
      if (err instanceof RpcResponseError && err.code === c.expectedError) return { status: 'passed' }
      if (
        err instanceof RpcResponseError &&
        err.code !== METHOD_NOT_FOUND &&
        !('expected' in c) &&
        NOT_FOUND.test(err.message)
      ) {
        return { status: 'skipped', reason: `this chain does not have what the example names (${err.message})` }
      }
      return { status: 'failed', reason: errorText(err) }
    }
    if (c.expectedError !== undefined)
      return { status: 'failed', reason: `expected error ${c.expectedError}, got ${shown(result)}` }
    const problem = judgeResult(c, result)
    return problem ? { status: 'failed', reason: problem } : { status: 'passed' }
  }

  close(): void {
    for (const socket of this.sockets.values())
      void socket.then(
        (s) => s.close(),
        () => undefined,
      )
    this.sockets.clear()
  }
}

function errorText(err: unknown): string {
  return err instanceof RpcResponseError ? `error ${err.code}: ${err.message}` : (err as Error).message
}

/** Resolves once the node's head is at least `count - 1` (the examples name early blocks). */
export async function waitForBlocks(url: string, count: number, timeoutMs = 30_000): Promise<void> {
  const client = createHttpClient(url)
  const deadline = Date.now() + timeoutMs
  while (Number(await client.call('eth_blockNumber', [])) < count - 1) {
    if (Date.now() > deadline) throw new Error(`${url} did not reach block ${count - 1} within ${timeoutMs / 1000} s`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}
