/**
 * Prints a JSON Schema as a TypeScript type expression. Component `$ref`s become the component's name, and
 * a ref into a component's inside (`#/components/schemas/X/properties/a`) the type of that part, printed in
 * place; hex strings (a pattern starting `^0x`) become `` `0x${string}` `` like viem's `Hex`; enums become
 * string-literal unions; oneOf/anyOf unions; allOf intersections. Wire types only: no bigint here.
 */
import { isSchema, parseSchemaRef, resolveSchemaRef, type Schema } from './model.js'
import { docText, propertyKey, quote } from './ts-project.js'

/** The component schemas refs resolve in, and the inside refs being printed (a ref back to one is unknown). */
interface Context {
  schemas: Readonly<Record<string, unknown>>
  inlining: Set<string>
}

function literal(value: unknown): string {
  if (typeof value === 'string') return quote(value)
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return String(value)
  return 'unknown'
}

function union(members: string[]): string {
  const unique = [...new Set(members)]
  if (unique.includes('unknown')) return 'unknown'
  return unique.length === 0 ? 'never' : unique.join(' | ')
}

/** Parenthesised when needed as an array element or intersection member. */
function grouped(type: string): string {
  return /^[\w.$]+(\[\])*$|^`[^`]*`$|^'[^']*'$/.test(type) ? type : `(${type})`
}

function typeForType(schema: Schema, type: string, ctx: Context): string {
  switch (type) {
    case 'string':
      return typeof schema.pattern === 'string' && schema.pattern.startsWith('^0x') ? '`0x${string}`' : 'string'
    case 'integer':
    case 'number':
      return 'number'
    case 'boolean':
      return 'boolean'
    case 'null':
      return 'null'
    case 'array':
      return arrayType(schema, ctx)
    case 'object':
      return objectType(schema, ctx)
    default:
      return 'unknown'
  }
}

function arrayType(schema: Schema, ctx: Context): string {
  const items = schema.items
  if (Array.isArray(items)) return `[${items.map((item) => typeOf(item, ctx)).join(', ')}]`
  const element = isSchema(items) ? typeOf(items, ctx) : 'unknown'
  return element.startsWith('{') ? `Array<${element}>` : `${grouped(element)}[]`
}

function objectType(schema: Schema, ctx: Context): string {
  const properties = isSchema(schema.properties) ? Object.entries(schema.properties) : []
  const extra = schema.additionalProperties
  const extraType = isSchema(extra) ? typeOf(extra, ctx) : extra === false ? undefined : 'unknown'
  if (properties.length === 0) return extraType === undefined ? 'Record<string, never>' : `Record<string, ${extraType}>`
  const required = new Set(Array.isArray(schema.required) ? schema.required : [])
  const members = properties.map(([name, property]) => {
    const doc = isSchema(property) ? docText(property.title as string, property.description as string) : ''
    const optional = required.has(name) ? '' : '?'
    const comment = doc === '' ? '' : `/** ${doc.replace(/\n/g, '\n * ')} */\n`
    return `${comment}${propertyKey(name)}${optional}: ${typeOf(property, ctx)}`
  })
  const body = `{\n${members.join('\n')}\n}`
  // an open object keeps its declared fields typed and allows more
  return isSchema(extra) ? `${body} & Record<string, ${extraType}>` : body
}

function refType(ref: string, ctx: Context): string {
  const parsed = parseSchemaRef(ref)
  if (!parsed) return 'unknown'
  if (parsed.pointer.length === 0) return parsed.component
  const target = resolveSchemaRef(parsed, ctx.schemas)
  if (!target || ctx.inlining.has(ref)) return 'unknown'
  ctx.inlining.add(ref)
  const type = typeOf(target, ctx)
  ctx.inlining.delete(ref)
  return type
}

/** Keywords that only annotate: beside a `$ref` they do not narrow its type. */
const annotations = new Set([
  '$ref',
  '$id',
  '$schema',
  '$comment',
  'title',
  'description',
  'default',
  'examples',
  'readOnly',
  'writeOnly',
])

/**
 * A `$ref` with constraints beside it (`{$ref: PayloadStatusV1, properties: {status: {enum: [...]}}}`)
 * means both, as ajv validates it (and as JSON Schema 2019-09 says; draft-07 would ignore the siblings).
 */
function refWithSiblings(schema: Schema & { $ref: string }, ctx: Context): string {
  const ref = refType(schema.$ref, ctx)
  const rest = Object.fromEntries(
    Object.entries(schema).filter(([key]) => !annotations.has(key) && !key.startsWith('x-')),
  )
  if (Object.keys(rest).length === 0) return ref
  const narrowed = typeOf(rest, ctx)
  return narrowed === 'unknown' ? ref : `${grouped(ref)} & ${grouped(narrowed)}`
}

function typeOf(schema: unknown, ctx: Context): string {
  if (!isSchema(schema)) return schema === false ? 'never' : 'unknown'
  if (typeof schema.$ref === 'string') return refWithSiblings(schema as Schema & { $ref: string }, ctx)
  if ('const' in schema) return literal(schema.const)
  if (Array.isArray(schema.enum)) return union(schema.enum.map(literal))
  for (const key of ['oneOf', 'anyOf']) {
    const list = schema[key]
    if (Array.isArray(list)) return union(list.map((item) => typeOf(item, ctx)))
  }
  if (Array.isArray(schema.allOf)) return schema.allOf.map((item) => grouped(typeOf(item, ctx))).join(' & ')
  if (Array.isArray(schema.type)) return union(schema.type.map((type) => typeForType(schema, String(type), ctx)))
  if (typeof schema.type === 'string') return typeForType(schema, schema.type, ctx)
  if (isSchema(schema.properties)) return objectType(schema, ctx)
  return 'unknown'
}

/** `schemas`: the document's component schemas, in which refs into a component's inside are resolved. */
export function schemaToType(schema: unknown, schemas: Readonly<Record<string, unknown>> = {}): string {
  return typeOf(schema, { schemas, inlining: new Set() })
}

/**
 * Component names a schema's type refers to, for `import type` lists: a ref into a component's inside
 * counts the names of the part printed in its place.
 */
export function referencedNames(
  schema: unknown,
  into: Set<string>,
  schemas: Readonly<Record<string, unknown>> = {},
  followed = new Set<string>(),
): Set<string> {
  if (Array.isArray(schema)) for (const item of schema) referencedNames(item, into, schemas, followed)
  else if (isSchema(schema)) {
    const ref = parseSchemaRef(schema.$ref)
    if (ref && ref.pointer.length === 0) into.add(ref.component)
    else if (ref && !followed.has(schema.$ref as string)) {
      followed.add(schema.$ref as string)
      referencedNames(resolveSchemaRef(ref, schemas), into, schemas, followed)
    }
    for (const [key, value] of Object.entries(schema))
      if (key !== 'enum' && key !== 'const' && key !== 'examples') referencedNames(value, into, schemas, followed)
  }
  return into
}
