/**
 * generated/methods.ts: the `Methods` map (typed params tuple and result per method, aliases included),
 * the `MethodHandlers<Ctx>` type src/ must satisfy (a missing handler is a compile error), and the method
 * table the transport dispatches with: param names, endpoints, flags, and the param/result checks built
 * from the standalone validators.
 */
import { StructureKind, type InterfaceDeclarationStructure, type Project, type PropertySignatureStructure } from 'ts-morph'
import type { ValidatorBuild } from './ajv-build.js'
import type { LoadedDocument, MethodModel } from './model.js'
import { referencedNames, schemaToType } from './schema-to-type.js'
import { docText, headerLine, printSourceFile, propertyKey, quote, type GeneratedFile, type Statement } from './ts-project.js'

function paramsTuple(method: MethodModel): string {
  const members = method.params.map((param) => `${param.name}${param.required ? '' : '?'}: ${schemaToType(param.schema)}`)
  return `[${members.join(', ')}]`
}

function methodsInterface(methods: MethodModel[]): InterfaceDeclarationStructure {
  const properties = methods.map((method): PropertySignatureStructure => {
    const served = `Served on: ${method.endpoints.join(', ')}.`
    const type = method.aliasOf
      ? `Methods[${quote(method.aliasOf)}]`
      : `{ params: ${paramsTuple(method)}; result: ${schemaToType(method.result.schema)} }`
    const alias = method.aliasOf ? `Alias of ${method.aliasOf}.` : undefined
    return { kind: StructureKind.PropertySignature, name: propertyKey(method.name), type, docs: [docText(method.summary, alias, served)] }
  })
  return {
    kind: StructureKind.Interface,
    name: 'Methods',
    isExported: true,
    docs: ['Every served method name, aliases included: its positional params and its result, as on the wire.'],
    properties,
  }
}

function specEntry(method: MethodModel, build: ValidatorBuild): string {
  const validators = build.byMethod.get(method.aliasOf ?? method.name)
  if (!validators) throw new Error(`no validators for ${method.name}`)
  const names = method.params.map((param) => quote(param.name))
  const required = method.params.filter((param) => param.required).length
  const fields = [
    `name: ${quote(method.name)}`,
    `target: ${quote(method.aliasOf ?? method.name)}`,
    `paramNames: [${names.join(', ')}]`,
    `requiredParams: ${required}`,
    `endpoints: [${method.endpoints.map(quote).join(', ')}]`,
    `pending: ${method.pending}`,
    `extension: ${method.extension}`,
    `websocketOnly: ${method.websocketOnly}`,
    `checkParams: paramChecker([${names.join(', ')}], ${required}, [${validators.params.map((v) => `validators.${v}`).join(', ')}])`,
    `checkResult: resultChecker(validators.${validators.result})`,
  ]
  return `${propertyKey(method.name)}: {\n${fields.join(',\n')},\n}`
}

const fixedStatements: Statement[] = [
  "export type Endpoint = 'general' | 'flashblocks'",
]

const handlerStatements: Statement[] = [
  'export type MethodName = keyof Methods',
  `/** One handler per method (aliases excluded: they dispatch to their target). A missing one is a compile error. */
export type MethodHandlers<Ctx> = {
  [M in Exclude<MethodName, AliasName>]: (params: Methods[M]['params'], ctx: Ctx) => Methods[M]['result'] | Promise<Methods[M]['result']>
}`,
  `export interface MethodSpec {
  readonly name: MethodName
  /** The handler that serves it: itself, or an alias's target. */
  readonly target: Exclude<MethodName, AliasName>
  readonly paramNames: readonly string[]
  readonly requiredParams: number
  readonly endpoints: readonly Endpoint[]
  /** Reads flashblock state under \`pending\` on /flashblocks. */
  readonly pending: boolean
  /** Served beyond the spec's tables. */
  readonly extension: boolean
  /** eth_subscribe/eth_unsubscribe: over HTTP the transport answers with an error. */
  readonly websocketOnly: boolean
  /** undefined when the params are valid, else the -32602 message, e.g. \`invalid argument 0 (address): ...\`. */
  checkParams(params: readonly unknown[]): string | undefined
  /** true when a result matches the result schema (tests and conformance; not on the hot path). */
  checkResult(result: unknown): boolean
}`,
]

const lookupStatements: Statement[] = [
  `function servedOn(endpoint: Endpoint): ReadonlyMap<string, MethodSpec> {
  const specs = Object.values(methodTable).filter((spec) => spec.endpoints.includes(endpoint))
  return new Map(specs.map((spec) => [spec.name, spec]))
}`,
  `const served: Readonly<Record<Endpoint, ReadonlyMap<string, MethodSpec>>> = {
  general: servedOn('general'),
  flashblocks: servedOn('flashblocks'),
}`,
  `/** The spec of a method served on the endpoint, or undefined (-32601). */
export function lookupMethod(endpoint: Endpoint, name: string): MethodSpec | undefined {
  return served[endpoint].get(name)
}`,
]

export function emitMethods(project: Project, loaded: LoadedDocument, build: ValidatorBuild, source: string): GeneratedFile {
  const { methods } = loaded
  const typeNames = new Set<string>()
  for (const method of methods) {
    for (const param of method.params) referencedNames(param.schema, typeNames)
    referencedNames(method.result.schema, typeNames)
  }
  const aliases = methods.filter((method) => method.aliasOf).map((method) => quote(method.name))
  const imports: Statement[] = [
    "import { paramChecker, resultChecker } from '../src/validation/check-params.js'",
    ...(typeNames.size > 0 ? [`import type { ${[...typeNames].sort().join(', ')} } from './types.js'`] : []),
    "import * as validators from './validators.js'",
  ]
  const table = `export const methodTable: Readonly<Record<MethodName, MethodSpec>> = Object.freeze({
${methods.map((method) => specEntry(method, build)).join(',\n')},
})`
  const statements: Statement[] = [
    ...imports,
    ...fixedStatements,
    methodsInterface(methods),
    ...handlerStatements.slice(0, 1),
    `/** Alternative spellings served as their target method. */\nexport type AliasName = ${aliases.length > 0 ? aliases.join(' | ') : 'never'}`,
    ...handlerStatements.slice(1),
    table,
    ...lookupStatements,
  ]
  return printSourceFile(project, 'methods.ts', headerLine('emit-methods.ts', source), statements)
}
