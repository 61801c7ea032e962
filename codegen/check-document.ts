/**
 * What the generators need beyond the metaschema, for any OpenRPC document, each problem naming the method
 * (or component) and the field: $refs that resolve, draft-07 keywords only, schema names usable as
 * TypeScript types, no required param after an optional one, typed x- fields, aliases equal to their
 * target, example params that line up with the declared ones. The project's own document also follows its
 * house rules (check-house-rules.ts).
 */
import { houseRuleProblems } from './check-house-rules.js'
import {
  endpointsOf,
  endpoints,
  isSchema,
  parseSchemaRef,
  resolveSchemaRef,
  type LoadOptions,
  type OpenRpcDocument,
  type Schema,
} from './model.js'
import { draft07Keywords, walkSchema } from './schema-walk.js'
import { typeNameProblem } from './type-names.js'

const errorRefPrefix = '#/components/errors/'
const booleanFlags = ['x-pending', 'x-extension', 'x-websocket-only', 'x-dev-node']

/** Problems inside one schema: $refs that resolve nowhere, keywords draft-07 does not know. */
function schemaProblems(
  schema: unknown,
  at: string,
  field: string,
  schemas: Readonly<Record<string, unknown>>,
): string[] {
  const problems: string[] = []
  const located = (path: string) => {
    const full = [field, path].filter((part) => part !== '').join('.')
    return full === '' ? at : `${at}: ${full}`
  }
  if (!isSchema(schema)) return [`${located('')}: expected a JSON schema object`]
  walkSchema(schema, '', (node, path) => {
    const where = located(path)
    for (const key of Object.keys(node)) {
      if (!draft07Keywords.has(key) && !key.startsWith('x-'))
        problems.push(`${where}: unknown keyword "${key}" (draft-07 keywords and x- extensions only)`)
    }
    const ref = node.$ref
    if (ref === undefined) return
    const parsed = parseSchemaRef(ref)
    if (!parsed) problems.push(`${where}: unsupported $ref ${JSON.stringify(ref)}`)
    else if (!resolveSchemaRef(parsed, schemas)) problems.push(`${where}: unknown $ref '${ref}'`)
  })
  return problems
}

/** Keywords under which a schema describes a part of the value: a $ref there consumes data before it recurses. */
const guarding = new Set(['properties', 'patternProperties', 'additionalProperties', 'items', 'additionalItems'])

/**
 * The component names a schema refers to without first descending into a property or an item. A ref into
 * a component's inside (`X/properties/a`) applies that part here, so its own unguarded refs count.
 */
function unguardedRefs(
  schema: unknown,
  schemas: Readonly<Record<string, unknown>>,
  into: Set<string>,
  followed = new Set<string>(),
): Set<string> {
  if (Array.isArray(schema)) {
    for (const item of schema) unguardedRefs(item, schemas, into, followed)
    return into
  }
  if (!isSchema(schema)) return into
  const ref = parseSchemaRef(schema.$ref)
  if (ref && ref.pointer.length === 0) into.add(ref.component)
  else if (ref && !followed.has(schema.$ref as string)) {
    followed.add(schema.$ref as string)
    unguardedRefs(resolveSchemaRef(ref, schemas), schemas, into, followed)
  }
  for (const [key, value] of Object.entries(schema))
    if (!guarding.has(key)) unguardedRefs(value, schemas, into, followed)
  return into
}

/**
 * A recursive schema is fine when the recursion goes through a part of the value (`CallFrame.calls:
 * {items: {$ref: CallFrame}}`: each level is a nested array); one that refers to itself before reaching any
 * value (`X: {oneOf: [..., {$ref: X}]}`) would make a validator loop forever, so that cycle is refused by name.
 */
function cycleProblems(schemas: Record<string, unknown>): string[] {
  const edges = new Map(
    Object.entries(schemas).map(([name, schema]) => [name, [...unguardedRefs(schema, schemas, new Set())]]),
  )
  const problems: string[] = []
  for (const start of edges.keys()) {
    const path = [start]
    const visit = (name: string): boolean => {
      for (const next of edges.get(name) ?? []) {
        if (next === start)
          return (
            problems.push(
              `schema ${start}: $ref cycle ${[...path, next].join(' -> ')} before any value (a schema must reach a property or an item before it refers to itself)`,
            ) > 0
          )
        if (path.includes(next)) continue
        path.push(next)
        if (visit(next)) return true
        path.pop()
      }
      return false
    }
    visit(start)
  }
  return problems
}

function paramProblems(method: Record<string, unknown>, at: string, schemas: Record<string, Schema>): string[] {
  const problems: string[] = []
  if (!Array.isArray(method.params)) return [`${at}: params: expected a list (empty when the method takes none)`]
  const seen = new Set<string>()
  let optionalSeen: string | undefined
  method.params.forEach((param: unknown, i) => {
    const where = `${at}: params[${i}]`
    if (!isSchema(param)) return problems.push(`${where}: expected a content descriptor (a $ref is not supported here)`)
    const name = param.name
    if (typeof name !== 'string' || name === '') problems.push(`${where}.name: expected a name`)
    else if (seen.has(name)) problems.push(`${where}.name: ${name} is used twice`)
    else seen.add(name)
    const label = `${where} (${String(name)})`
    if (param.required !== undefined && typeof param.required !== 'boolean')
      problems.push(`${label}.required: expected true or false`)
    if (param.required === true && optionalSeen)
      problems.push(`${label}.required: a required param follows the optional param ${optionalSeen}`)
    if (param.required !== true) optionalSeen ??= String(name)
    problems.push(...schemaProblems(param.schema, at, `params[${i}] (${String(name)}).schema`, schemas))
    return undefined
  })
  return problems
}

function extensionProblems(method: Record<string, unknown>, at: string): string[] {
  const problems: string[] = []
  const served = method['x-endpoints']
  if (served === undefined) {
    // served on the general endpoint (the house rules ask for the list)
  } else if (!Array.isArray(served) || served.length === 0) {
    problems.push(`${at}: x-endpoints: list general and/or flashblocks`)
  } else {
    const bad = served.filter((e) => !endpoints.includes(e))
    if (bad.length > 0)
      problems.push(`${at}: x-endpoints: unknown endpoint ${JSON.stringify(bad[0])} (general or flashblocks)`)
    if (new Set(served).size !== served.length) problems.push(`${at}: x-endpoints: an endpoint is listed twice`)
  }
  for (const flag of booleanFlags) {
    if (flag in method && typeof method[flag] !== 'boolean') problems.push(`${at}: ${flag}: expected true or false`)
  }
  return problems
}

function aliasProblems(
  method: Record<string, unknown>,
  at: string,
  byName: Map<string, Record<string, unknown>>,
): string[] {
  const aliasOf = method['x-alias-of']
  if (aliasOf === undefined) return []
  const target = typeof aliasOf === 'string' ? byName.get(aliasOf) : undefined
  if (!target) return [`${at}: x-alias-of: no method named ${JSON.stringify(aliasOf)}`]
  if (target['x-alias-of'] !== undefined) return [`${at}: x-alias-of: ${aliasOf} is itself an alias`]
  const problems: string[] = []
  if (JSON.stringify(method.params) !== JSON.stringify(target.params))
    problems.push(`${at}: params: an alias must declare the same params as ${aliasOf}`)
  if (JSON.stringify(method.result) !== JSON.stringify(target.result))
    problems.push(`${at}: result: an alias must declare the same result as ${aliasOf}`)
  return problems
}

function exampleProblems(
  method: Record<string, unknown>,
  at: string,
  byName: Map<string, Record<string, unknown>>,
): string[] {
  const examples = method.examples ?? []
  if (!Array.isArray(examples)) return [`${at}: examples: expected a list`]
  const params = Array.isArray(method.params) ? method.params.filter(isSchema) : []
  const problems: string[] = []
  examples.forEach((example: unknown, i) => {
    const where = `${at}: examples[${i}]`
    if (!isSchema(example) || !Array.isArray(example.params))
      return problems.push(`${where}: expected {name, params, result}`)
    if (example.params.length > params.length)
      problems.push(`${where}.params: ${example.params.length} values for ${params.length} params`)
    example.params.forEach((value: unknown, j) => {
      if (!isSchema(value) || !('value' in value)) problems.push(`${where}.params[${j}]: missing value`)
    })
    // an example of a refusal names its error code instead of a result (x-error-code)
    const refusal = typeof example['x-error-code'] === 'number'
    if (!refusal && (!isSchema(example.result) || !('value' in example.result)))
      problems.push(`${where}.result: missing result value`)
    const endpoint = example['x-endpoint']
    if (endpoint !== undefined && !(endpointsOf(method) as unknown[]).includes(endpoint))
      problems.push(`${where}.x-endpoint: ${JSON.stringify(endpoint)} does not serve ${String(method.name)}`)
    const setup = example['x-setup']
    if (setup !== undefined && (typeof setup !== 'string' || !byName.has(setup)))
      problems.push(`${where}.x-setup: no method named ${JSON.stringify(setup)}`)
    if (example['x-reproducible'] !== undefined && typeof example['x-reproducible'] !== 'boolean')
      problems.push(`${where}.x-reproducible: expected true or false`)
    return undefined
  })
  return problems
}

function errorProblems(method: Record<string, unknown>, at: string, errorNames: Set<string>): string[] {
  if (method.errors === undefined) return []
  if (!Array.isArray(method.errors)) return [`${at}: errors: expected a list`]
  return method.errors.flatMap((error: unknown, i) => {
    const ref = isSchema(error) ? error.$ref : undefined
    if (typeof ref === 'string') {
      return ref.startsWith(errorRefPrefix) && errorNames.has(ref.slice(errorRefPrefix.length))
        ? []
        : [`${at}: errors[${i}]: unknown $ref '${ref}'`]
    }
    return isSchema(error) && Number.isInteger(error.code) && typeof error.message === 'string'
      ? []
      : [`${at}: errors[${i}]: expected {code, message}`]
  })
}

export function checkDocument(document: OpenRpcDocument, files: Map<string, string>, options: LoadOptions): string[] {
  const problems: string[] = []
  const { schemas } = document.components
  const errorNames = new Set(Object.keys(document.components.errors ?? {}))
  for (const [name, schema] of Object.entries(schemas)) {
    const at = `schema ${name}`
    const nameProblem = typeNameProblem(name)
    if (nameProblem) problems.push(`${at}: ${nameProblem}`)
    problems.push(...schemaProblems(schema, at, '', schemas))
  }
  problems.push(...cycleProblems(schemas))
  const byName = new Map(document.methods.map((method) => [method.name, method]))
  for (const method of document.methods) {
    const at = `method ${method.name} (${files.get(method.name)})`
    // the method table and the client pass params as an array
    if (method.paramStructure === 'by-name') problems.push(`${at}: paramStructure: by-name is not supported`)
    problems.push(...paramProblems(method, at, schemas))
    if (!isSchema(method.result) || typeof method.result.name !== 'string')
      problems.push(`${at}: result: expected {name, schema}`)
    else problems.push(...schemaProblems(method.result.schema, at, 'result.schema', schemas))
    problems.push(...extensionProblems(method, at), ...aliasProblems(method, at, byName))
    problems.push(...exampleProblems(method, at, byName), ...errorProblems(method, at, errorNames))
  }
  if (options.houseRules) problems.push(...houseRuleProblems(document, files))
  return problems
}
