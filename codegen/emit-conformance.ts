/**
 * generated/conformance.ts: every example pairing of the document as a conformance case (which endpoint,
 * which transport, the params, the exact result when it is reproducible, a setup call when the params name
 * a server-side object), and generated/conformance.test.ts, which runs them against this service. The
 * runner that executes a case against any node is src/conformance/; `npm run conformance` is its CLI.
 */
import type { Project } from 'ts-morph'
import { identifierOf } from './ajv-build.js'
import type { ExampleModel, LoadedDocument, MethodModel } from './model.js'
import { headerLine, printSourceFile, quote, type GeneratedFile } from './ts-project.js'

interface CaseModel {
  id: string
  method: string
  example: string
  endpoint: 'general' | 'flashblocks'
  websocket: boolean
  params: unknown[]
  resultValidator: string
  expected?: unknown
  setup?: { method: string; params: unknown[] }
}

/** Sends change the chain (nonces, the pool): they run after every read, so reads see a node as it was found. */
function changesChain(method: string): boolean {
  return method.startsWith('eth_send')
}

function toCase(method: MethodModel, example: ExampleModel, byName: Map<string, MethodModel>): CaseModel {
  const model: CaseModel = {
    id: `${method.name}: ${example.name}`,
    method: method.name,
    example: example.name,
    endpoint: example.endpoint ?? (method.endpoints.includes('general') ? 'general' : 'flashblocks'),
    websocket: method.websocketOnly,
    params: example.params.map((param) => param.value),
    // an alias is checked by its target's schema (it has no validator of its own)
    resultValidator: `${identifierOf(method.aliasOf ?? method.name)}_result`,
  }
  if (example.reproducible && example.result) model.expected = example.result.value
  if (example.setup) {
    const setup = byName.get(example.setup)!
    model.setup = { method: setup.name, params: (setup.examples[0]?.params ?? []).map((param) => param.value) }
  }
  return model
}

export function conformanceCases(loaded: LoadedDocument): CaseModel[] {
  const byName = new Map(loaded.methods.map((method) => [method.name, method]))
  const cases = loaded.methods.flatMap((method) => method.examples.map((example) => toCase(method, example, byName)))
  return [...cases.filter((c) => !changesChain(c.method)), ...cases.filter((c) => changesChain(c.method))]
}

const caseType = `/** One example pairing of the document, ready to run against a node. */
export interface ConformanceCase {
  /** \`method: example name\`, unique. */
  readonly id: string
  readonly method: MethodName
  readonly example: string
  /** The endpoint the example belongs to. */
  readonly endpoint: Endpoint
  /** Subscriptions exist only over WebSocket. */
  readonly websocket: boolean
  readonly params: readonly unknown[]
  /** The export of generated/validators.js that checks the result. */
  readonly resultValidator: string
  /** Present when any fresh node of the chain answers exactly this (\`x-reproducible\`); otherwise the result is checked against the schema only. */
  readonly expected?: unknown
  /** Runs first on the same connection; its result replaces params[0] (a filter or subscription id). */
  readonly setup?: { readonly method: MethodName; readonly params: readonly unknown[] }
}`

export function emitConformance(project: Project, loaded: LoadedDocument, source: string): GeneratedFile[] {
  const cases = conformanceCases(loaded)
  const casesFile = printSourceFile(project, 'conformance.ts', headerLine('emit-conformance.ts', source), [
    "import type { Endpoint, MethodName } from './methods.js'",
    caseType,
    `/** In run order: reads first, then the methods that send transactions. */\nexport const conformanceCases: readonly ConformanceCase[] = ${JSON.stringify(cases, null, 2)}`,
  ])
  const testFile = printSourceFile(project, 'conformance.test.ts', headerLine('emit-conformance.ts', source), [
    "import { afterAll, beforeAll, describe, expect, test } from 'vitest'",
    "import { ConformanceSession, waitForBlocks } from '../src/conformance/session.js'",
    "import { startService, type RunningService } from '../src/service.js'",
    "import { conformanceCases } from './conformance.js'",
    `describe(${quote('the document\'s examples against this service')}, () => {
  let service: RunningService
  let session: ConformanceSession

  beforeAll(async () => {
    service = await startService({ port: 0, quiet: true, rateLimit: 0 })
    session = new ConformanceSession({ general: service.url, flashblocks: service.flashblocksUrl })
    // the examples name blocks up to 0x4
    await waitForBlocks(service.url, 5)
  })
  afterAll(async () => {
    session?.close()
    await service?.close()
  })

  for (const c of conformanceCases) {
    test(c.id, async (context) => {
      const outcome = await session.run(c)
      if (outcome.status === 'skipped') context.skip(outcome.reason)
      expect(outcome.status, outcome.reason).toBe('passed')
    })
  }
})`,
  ])
  return [casesFile, testFile]
}
