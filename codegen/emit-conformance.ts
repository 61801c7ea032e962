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
  expectedError?: number
  setup?: { method: string; params: unknown[] }
}

/**
 * The order cases run in: reads see a node as it was found, then sends change it (nonces, the pool), then
 * the dev-node methods change its state and clock (resets last), so no send meets an edited chain.
 */
function phase(method: MethodModel): number {
  if (method.devNode) return /_reset$/.test(method.name) ? 3 : 2
  return method.name.startsWith('eth_send') ? 1 : 0
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
  if (example.errorCode !== undefined) model.expectedError = example.errorCode
  if (example.setup) {
    const setup = byName.get(example.setup)!
    model.setup = { method: setup.name, params: (setup.examples[0]?.params ?? []).map((param) => param.value) }
  }
  return model
}

export function conformanceCases(loaded: LoadedDocument): CaseModel[] {
  const byName = new Map(loaded.methods.map((method) => [method.name, method]))
  const cases = loaded.methods.flatMap((method) => method.examples.map((example) => toCase(method, example, byName)))
  const phaseOf = (c: CaseModel) => phase(byName.get(c.method)!)
  return [0, 1, 2, 3].flatMap((n) => cases.filter((c) => phaseOf(c) === n))
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
