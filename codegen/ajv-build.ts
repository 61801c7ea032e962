/**
 * One ajv 8 instance holding every param and result schema of the document, used both to check the
 * document's examples and to write the standalone validators, so both see exactly the same rules.
 *
 * Component schemas live under one root schema (`$id: openrpc`) at their OpenRPC path, so their own
 * `#/components/schemas/X` refs resolve unchanged and method schemas point at `openrpc#/components/schemas/X`;
 * each referenced component is compiled once and shared. Options: draft-07 (the default class, as OpenRPC
 * 1.3 mandates), no coercion, no defaults, first error only, and `verbose` so an error carries its schema
 * (the readable -32602 text reads its `x-error`). Unions are made cheap for block tags (union-order.ts).
 */
import { Ajv } from 'ajv'
import { isSchema, schemaRefPrefix, type MethodModel, type Schema } from './model.js'
import { finiteFirstValues, oneOfsAsAnyOf } from './union-order.js'

const rootId = 'openrpc'

/** Keywords that only document; dropped so the standalone code does not carry prose. */
const prose = new Set(['description', '$comment', 'examples', 'default'])

/** Keywords whose value maps names to schemas: the names are data (a property may be called `description`). */
const schemaMaps = new Set(['properties', 'patternProperties', 'definitions', 'dependencies'])
/** Keywords whose value is data, copied as it is. */
const dataKeywords = new Set(['enum', 'const', 'required'])

function forValidation(schema: unknown, rewriteRefs: boolean): Schema {
  const strip = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(strip)
    if (!isSchema(node)) return node
    const kept: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(node)) {
      if (key === '$schema' || key === '$id' || prose.has(key)) continue
      if (key.startsWith('x-') && key !== 'x-error') continue
      if (dataKeywords.has(key)) kept[key] = value
      else if (schemaMaps.has(key) && isSchema(value))
        kept[key] = Object.fromEntries(Object.entries(value).map(([name, item]) => [name, strip(item)]))
      else if (key === '$ref' && rewriteRefs && typeof value === 'string' && value.startsWith(schemaRefPrefix))
        kept[key] = `${rootId}${value}`
      else kept[key] = strip(value)
    }
    return kept
  }
  return strip(schema) as Schema
}

/** `rpc.discover` -> `rpc_discover`: method names become parts of export names. */
export function identifierOf(methodName: string): string {
  return methodName.replace(/[^A-Za-z0-9_$]/g, '_')
}

interface MethodValidators {
  /** Export names in validators.js, one per declared param. */
  params: string[]
  result: string
}

type FiniteValue = string | number | boolean | null

export interface ValidatorBuild {
  ajv: Ajv
  /** Export name -> schema key, in emission order. */
  exports: Record<string, string>
  /** Per method; an alias maps to its target's validators. */
  byMethod: Map<string, MethodValidators>
  /** Export name -> the values that pass it outright, checked before ajv runs (union-order.ts). */
  finiteFirst: Record<string, FiniteValue[]>
}

function createAjv(): Ajv {
  // strict off: schemas carry OpenRPC/x- keywords (x-error, title) that ajv's strict mode would refuse
  return new Ajv({
    strict: false,
    allErrors: false,
    coerceTypes: false,
    useDefaults: false,
    removeAdditional: false,
    verbose: true,
    code: { source: true, esm: true, lines: true },
  })
}

export function buildValidators(methods: MethodModel[], schemas: [string, Schema][]): ValidatorBuild {
  const ajv = createAjv()
  const components = Object.fromEntries(schemas.map(([name, schema]) => [name, forValidation(schema, false)]))
  const probe = createAjv()
  probe.addSchema({ $id: rootId, components: { schemas: structuredClone(components) } })
  const unions = {
    components,
    probe,
    absoluteRef: (ref: string) => (ref.startsWith(schemaRefPrefix) ? `${rootId}${ref}` : ref),
  }
  for (const schema of Object.values(components)) oneOfsAsAnyOf(schema, unions)
  ajv.addSchema({ $id: rootId, components: { schemas: components } })
  const exports: Record<string, string> = {}
  const byMethod = new Map<string, MethodValidators>()
  const finiteFirst: Record<string, FiniteValue[]> = {}
  const seen = new Map<string, string>()
  for (const method of methods) {
    if (method.aliasOf) continue
    const id = identifierOf(method.name)
    if (seen.has(id)) throw new Error(`methods ${seen.get(id)} and ${method.name} map to the same identifier ${id}`)
    seen.set(id, method.name)
    const entries: [string, Schema][] = method.params.map((param, i) => [`${id}_param${i}`, param.schema])
    entries.push([`${id}_result`, method.result.schema])
    for (const [name, schema] of entries) {
      const checked = forValidation(schema, true)
      oneOfsAsAnyOf(checked, unions)
      ajv.addSchema(checked, name)
      const values = finiteFirstValues(checked, unions)
      if (values.length > 0) finiteFirst[name] = values
      exports[name] = name
    }
    byMethod.set(method.name, { params: entries.slice(0, -1).map(([name]) => name), result: `${id}_result` })
  }
  for (const method of methods) {
    const target = method.aliasOf ? byMethod.get(method.aliasOf) : undefined
    if (target) byMethod.set(method.name, target)
  }
  return { ajv, exports, byMethod, finiteFirst }
}
