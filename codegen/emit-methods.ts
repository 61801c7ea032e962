/**
 * generated/methods.ts: the `Methods` map (typed params tuple and result per method, aliases included),
 * the `MethodHandlers<Ctx>` type src/ must satisfy (a missing handler is a compile error), and the method
 * table the transport dispatches with: per method its param names, endpoints, flags and standalone
 * validators. How a spec, its checks and the endpoint lookup are built is src/rpc/method-table.ts.
 */
import {
  StructureKind,
  type InterfaceDeclarationStructure,
  type Project,
  type PropertySignatureStructure,
} from 'ts-morph'
import type { ValidatorBuild } from './ajv-build.js'
import type { LoadedDocument, MethodModel } from './model.js'
import { referencedNames, schemaToType } from './schema-to-type.js'
import {
  docText,
  headerLine,
  printSourceFile,
  propertyKey,
  quote,
  type GeneratedFile,
  type Statement,
} from './ts-project.js'

/** Reserved words a tuple label cannot be. */
const reservedLabels = new Set(
  'break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with'.split(
    ' ',
  ),
)

/**
 * A tuple label for a param: its name when that is an identifier, else its words in camelCase (OpenRPC
 * names are free text: execution-apis calls a param `Block hash`); a clash within the method gets its position.
 */
function paramLabels(method: MethodModel): string[] {
  const labels: string[] = []
  method.params.forEach((param, i) => {
    const words = param.name.split(/[^A-Za-z0-9_$]+/).filter((word) => word !== '')
    let label = /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(param.name)
      ? param.name
      : words.map((word, j) => (j === 0 ? word[0]!.toLowerCase() : word[0]!.toUpperCase()) + word.slice(1)).join('')
    if (label === '' || /^[0-9]/.test(label) || reservedLabels.has(label)) label = `_${label}`
    labels.push(labels.includes(label) ? `${label}${i}` : label)
  })
  return labels
}

function paramsTuple(method: MethodModel, schemas: Readonly<Record<string, unknown>>): string {
  const labels = paramLabels(method)
  const members = method.params.map(
    (param, i) => `${labels[i]}${param.required ? '' : '?'}: ${schemaToType(param.schema, schemas)}`,
  )
  return `[${members.join(', ')}]`
}

function methodsInterface(
  methods: MethodModel[],
  schemas: Readonly<Record<string, unknown>>,
): InterfaceDeclarationStructure {
  const properties = methods.map((method): PropertySignatureStructure => {
    const served = `Served on: ${method.endpoints.join(', ')}.`
    const type = method.aliasOf
      ? `Methods[${quote(method.aliasOf)}]`
      : `{ params: ${paramsTuple(method, schemas)}; result: ${schemaToType(method.result.schema, schemas)} }`
    const alias = method.aliasOf ? `Alias of ${method.aliasOf}.` : undefined
    return {
      kind: StructureKind.PropertySignature,
      name: propertyKey(method.name),
      type,
      docs: [docText(method.summary, alias, served)],
    }
  })
  return {
    kind: StructureKind.Interface,
    name: 'Methods',
    isExported: true,
    docs: ['Every served method name, aliases included: its positional params and its result, as on the wire.'],
    properties,
  }
}

function definition(method: MethodModel, build: ValidatorBuild): string {
  const validators = build.byMethod.get(method.aliasOf ?? method.name)
  if (!validators) throw new Error(`no validators for ${method.name}`)
  const fields = [
    `name: ${quote(method.name)}`,
    `target: ${quote(method.aliasOf ?? method.name)}`,
    `paramNames: [${method.params.map((param) => quote(param.name)).join(', ')}]`,
    `requiredParams: ${method.params.filter((param) => param.required).length}`,
    `endpoints: [${method.endpoints.map(quote).join(', ')}]`,
    `pending: ${method.pending}`,
    `extension: ${method.extension}`,
    `websocketOnly: ${method.websocketOnly}`,
    `devNode: ${method.devNode}`,
    `paramValidators: [${validators.params.map((v) => `validators.${v}`).join(', ')}]`,
    `resultValidator: validators.${validators.result}`,
  ]
  return `${propertyKey(method.name)}: defineMethod({\n${fields.join(',\n')},\n})`
}

const handlerTypes: Statement[] = [
  `/** One handler per method (aliases excluded: they dispatch to their target). A missing one is a compile error. */
export type MethodHandlers<Ctx> = HandlersOf<Methods, AliasName, Ctx>`,
  '/** A row of the method table: how the transport serves and checks one method. */\nexport type MethodSpec = Spec<MethodName, Exclude<MethodName, AliasName>>',
]

export function emitMethods(
  project: Project,
  loaded: LoadedDocument,
  build: ValidatorBuild,
  source: string,
): GeneratedFile {
  const { methods } = loaded
  const { schemas } = loaded.document.components
  const typeNames = new Set<string>()
  for (const method of methods) {
    for (const param of method.params) referencedNames(param.schema, typeNames, schemas)
    referencedNames(method.result.schema, typeNames, schemas)
  }
  const aliases = methods.filter((method) => method.aliasOf).map((method) => quote(method.name))
  const imports: Statement[] = [
    "import { defineMethod, methodLookup, type HandlersOf, type MethodLookup, type MethodSpec as Spec } from '../src/rpc/method-table.js'",
    ...(typeNames.size > 0 ? [`import type { ${[...typeNames].sort().join(', ')} } from './types.js'`] : []),
    "import * as validators from './validators.js'",
    "export type { Endpoint } from '../src/rpc/method-table.js'",
  ]
  const table = `export const methodTable: Readonly<Record<MethodName, MethodSpec>> = Object.freeze({
${methods.map((method) => definition(method, build)).join(',\n')},
})`
  const statements: Statement[] = [
    ...imports,
    methodsInterface(methods, schemas),
    'export type MethodName = keyof Methods',
    `/** Alternative spellings served as their target method. */\nexport type AliasName = ${aliases.length > 0 ? aliases.join(' | ') : 'never'}`,
    ...handlerTypes,
    table,
    '/** The spec of a method served on the endpoint, or undefined (-32601). */\nexport const lookupMethod: MethodLookup<MethodSpec> = methodLookup(methodTable)',
  ]
  return printSourceFile(project, 'methods.ts', headerLine('emit-methods.ts', source), statements)
}
