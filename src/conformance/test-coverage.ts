/**
 * `npm run test-coverage -- --url http://host:port`: @open-rpc/test-coverage, the OpenRPC project's own
 * tester, against a running service with the documents the service itself serves (rpc.discover on `/` and
 * on `/flashblocks`). Its examples rule sends every example and wants the example's result or, failing
 * that, a result valid against the method's schema. Three adaptations, each for a limit of the tool:
 * - its ajv runs in strict mode and refuses the document's `x-` annotations (JSON Schema allows them; they
 *   never change what validates), so they are removed from the copy handed to it;
 * - it speaks HTTP only, so the WebSocket-only methods (eth_subscribe, eth_unsubscribe) go over a socket;
 * - it knows no setup, so an example the document marks `x-setup` (a filter or subscription id) gets the
 *   id its setup method creates, as in our conformance suite.
 * The traces of a transaction or block by hash are skipped: their examples name a run's objects a fresh
 * node does not have (the conformance suite skips those examples on a not-found answer for the same reason).
 * The dev-node methods (`x-dev-node`) are left out: the tool runs examples in document order, and they would
 * rewrite the node's state and clock under the examples after them (the conformance suite runs them last).
 */
import { isDeepStrictEqual, parseArgs } from 'node:util'
import testCoverageModule from '@open-rpc/test-coverage'
import ExamplesRuleModule from '@open-rpc/test-coverage/build/rules/examples-rule.js'
import type { Call } from '@open-rpc/test-coverage/build/coverage.js'
import type RuleModule from '@open-rpc/test-coverage/build/rules/rule.js'
import { createWsClient, RpcResponseError, type WsRpcClient } from '../../generated/client.js'
import { wsUrlOf } from '../client/ws-url.js'

// the package is CommonJS compiled from ES modules: imported from ESM, its default export sits one level down
const testCoverage = testCoverageModule.default
const ExamplesRule = ExamplesRuleModule.default
type Rule = RuleModule.default

type Document = Parameters<typeof testCoverage>[0]['openrpcDocument']
type Example = { params: { value: unknown }[]; 'x-setup'?: string; 'x-endpoint'?: string }
type Method = {
  name: string
  examples?: Example[]
  'x-websocket-only'?: boolean
  'x-endpoints'?: string[]
  'x-dev-node'?: boolean
}
type Reply = { result?: unknown; error?: { code: number; message: string; data?: unknown } }

/** Methods whose every example names a transaction or block of the run it was captured on. */
export const SKIPPED = ['debug_traceBlockByHash', 'debug_traceTransaction']

async function post(url: string, method: string, params: unknown[]): Promise<Reply> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return (await response.json()) as Reply
}

/** The same value without `x-` keys anywhere inside schemas (test-coverage's strict ajv refuses them). */
function withoutAnnotations(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutAnnotations)
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !key.startsWith('x-'))
      .map(([key, item]) => [key, withoutAnnotations(item)]),
  )
}

/**
 * Every `#/components/schemas/X` replaced by X (schema-utils' dereferencer never finishes on a recursive
 * schema such as CallFrame): a reference back into a schema being expanded becomes `{}`, any value.
 */
function dereference(document: object): unknown {
  const schemas = (document as { components?: { schemas?: Record<string, unknown> } }).components?.schemas ?? {}
  const expand = (value: unknown, open: readonly string[]): unknown => {
    if (Array.isArray(value)) return value.map((item) => expand(item, open))
    if (typeof value !== 'object' || value === null) return value
    const ref = (value as { $ref?: unknown }).$ref
    if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
      const name = ref.slice('#/components/schemas/'.length)
      return open.includes(name) ? {} : expand(schemas[name], [...open, name])
    }
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, expand(item, open)]))
  }
  return { ...(expand({ ...document, components: undefined }, []) as object), components: {} }
}

/** The endpoint's own document, dereferenced, schemas stripped of annotations, pointed at the endpoint. */
async function documentOf(url: string): Promise<{ document: Document; methods: Method[] }> {
  const reply = await post(url, 'rpc.discover', [])
  if (reply.error) throw new Error(`${url} rpc.discover: ${reply.error.message}`)
  const served = reply.result as { methods: Method[] }
  const raw = { ...served, methods: served.methods.filter((method) => !method['x-dev-node']) }
  const dereferenced = dereference(raw) as { methods: Record<string, unknown>[] }
  const methods = dereferenced.methods.map((method) => ({
    ...method,
    params: withoutAnnotations(method.params),
    result: withoutAnnotations(method.result),
  }))
  return {
    document: { ...dereferenced, methods, servers: [{ name: url, url }] } as unknown as Document,
    methods: raw.methods,
  }
}

/** HTTP for most methods, one WebSocket per endpoint for the WebSocket-only ones. */
function transportFor(websocketOnly: Set<string>) {
  const sockets = new Map<string, Promise<WsRpcClient>>()
  const socket = (url: string) => {
    let client = sockets.get(url)
    if (!client) sockets.set(url, (client = createWsClient(wsUrlOf(url))))
    return client
  }
  const send = async (url: string, method: string, params: unknown[]): Promise<Reply> => {
    if (!websocketOnly.has(method)) return post(url, method, params)
    try {
      return { result: await (await socket(url)).call(method, params) }
    } catch (err) {
      if (err instanceof RpcResponseError) return { error: { code: err.code, message: err.message, data: err.data } }
      throw err
    }
  }
  const close = () =>
    Promise.all(
      [...sockets.values()].map((client) =>
        client.then(
          (c) => c.close(),
          () => undefined,
        ),
      ),
    )
  return { send, close }
}

/** The endpoint an example belongs to: its `x-endpoint`, else the general one if the method is served there. */
function endpointOf(method: Method, example: Example): string {
  return example['x-endpoint'] ?? (method['x-endpoints']?.includes('general') ? 'general' : 'flashblocks')
}

/**
 * test-coverage's examples rule on the examples of one endpoint (each example runs once, where it was
 * taken), plus the document's `x-setup`: the setup's result becomes params[0].
 */
function examplesRuleFor(
  endpoint: string,
  methods: Method[],
  send: (url: string, method: string, params: unknown[]) => Promise<Reply>,
): Rule {
  const rule: Rule = new ExamplesRule({ skip: SKIPPED, only: [] })
  const allCalls = rule.getCalls.bind(rule)
  rule.getCalls = (document, method) => {
    const examples = (method as unknown as Method).examples ?? []
    return allCalls(document, {
      ...method,
      examples: examples.filter((ex) => endpointOf(method as unknown as Method, ex) === endpoint),
    } as never)
  }
  rule.beforeRequest = async (_options, call) => {
    const examples = methods.find((method) => method.name === call.methodName)?.examples ?? []
    const example = examples.find(
      (ex) =>
        ex['x-setup'] &&
        isDeepStrictEqual(
          ex.params.map((p) => p.value),
          call.params,
        ),
    )
    const setupMethod = methods.find((method) => method.name === example?.['x-setup'])
    if (!example || !setupMethod) return
    const reply = await send(
      call.url,
      setupMethod.name,
      (setupMethod.examples?.[0]?.params ?? []).map((p) => p.value),
    )
    if (reply.error) throw new Error(`setup ${setupMethod.name} for ${call.methodName} failed: ${reply.error.message}`)
    call.params = [reply.result, ...call.params.slice(1)]
  }
  return rule
}

/** Runs test-coverage on each endpoint's document; returns the calls it judged, by endpoint URL. */
export async function runTestCoverage(
  urls: Record<'general' | 'flashblocks', string>,
  reporter: 'console-streaming' | 'empty' = 'console-streaming',
): Promise<Call[]> {
  const calls: Call[] = []
  for (const [endpoint, url] of Object.entries(urls)) {
    // the console reporter ends the process after one document; console-streaming does not
    const { document, methods } = await documentOf(url)
    const transport = transportFor(new Set(methods.filter((m) => m['x-websocket-only']).map((m) => m.name)))
    try {
      calls.push(
        ...(await testCoverage({
          openrpcDocument: document,
          transport: transport.send as never,
          reporters: [reporter],
          rules: [examplesRuleFor(endpoint, methods, transport.send)],
        })),
      )
    } finally {
      await transport.close()
    }
  }
  return calls
}

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { url: { type: 'string' } }, strict: true })
  if (!values.url) {
    console.error(
      'usage: npm run test-coverage -- --url http://host:port   (tests the documents of / and /flashblocks)',
    )
    return 2
  }
  const base = values.url.replace(/\/+$/, '')
  const calls = await runTestCoverage({ general: `${base}/`, flashblocks: `${base}/flashblocks` })
  const failed = calls.filter((call) => !call.valid)
  console.log(
    `test-coverage: ${calls.length - failed.length} of ${calls.length} example calls valid (skipped: ${SKIPPED.join(', ')})`,
  )
  return failed.length > 0 ? 1 : 0
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = await main(process.argv.slice(2))
