/**
 * generated/conformance.ts: every example pairing of the document as a conformance case (which endpoint,
 * which transport, the params, the exact result when it is reproducible, a setup call when the params name
 * a server-side object), and generated/conformance.test.ts, which runs them against this service. What a
 * case is, the runner that executes one against any node and the vitest suite over this service are
 * src/conformance/ (case.ts, session.ts, suite.ts); `npm run conformance` is the runner's CLI.
 */
import type { Project } from 'ts-morph'
import { identifierOf } from './ajv-build.js'
import type { Endpoint, ExampleModel, LoadedDocument, MethodModel } from './model.js'
import { headerLine, printSourceFile, type GeneratedFile } from './ts-project.js'

interface CaseModel {
  id: string
  method: string
  example: string
  endpoint: Endpoint
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

export function emitConformance(project: Project, loaded: LoadedDocument, source: string): GeneratedFile[] {
  const cases = conformanceCases(loaded)
  const casesFile = printSourceFile(project, 'conformance.ts', headerLine('emit-conformance.ts', source), [
    "import type { ConformanceCase as Case } from '../src/conformance/case.js'",
    "import type { MethodName } from './methods.js'",
    '/** One example pairing of the document, ready to run against a node. */\nexport type ConformanceCase = Case<MethodName>',
    `/** In run order: reads first, then the methods that send transactions. */\nexport const conformanceCases: readonly ConformanceCase[] = ${JSON.stringify(cases, null, 2)}`,
  ])
  const testFile = printSourceFile(project, 'conformance.test.ts', headerLine('emit-conformance.ts', source), [
    "import { describeConformance } from '../src/conformance/suite.js'",
    "import { conformanceCases } from './conformance.js'",
    'describeConformance(conformanceCases)',
  ])
  return [casesFile, testFile]
}
