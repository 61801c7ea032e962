/**
 * Prints a JSON Schema as a TypeScript type expression. Component `$ref`s become the component's name;
 * hex strings (a pattern starting `^0x`) become `` `0x${string}` `` like viem's `Hex`; enums become
 * string-literal unions; oneOf/anyOf unions; allOf intersections. Wire types only: no bigint here.
 */
import { isSchema, schemaRefPrefix, type Schema } from './model.js'
import { docText, propertyKey, quote } from './ts-project.js'

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

function typeForType(schema: Schema, type: string): string {
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
      return arrayType(schema)
    case 'object':
      return objectType(schema)
    default:
      return 'unknown'
  }
}

function arrayType(schema: Schema): string {
  const items = schema.items
  if (Array.isArray(items)) return `[${items.map((item) => schemaToType(item)).join(', ')}]`
  const element = isSchema(items) ? schemaToType(items) : 'unknown'
  return element.startsWith('{') ? `Array<${element}>` : `${grouped(element)}[]`
}

function objectType(schema: Schema): string {
  const properties = isSchema(schema.properties) ? Object.entries(schema.properties) : []
  const extra = schema.additionalProperties
  const extraType = isSchema(extra) ? schemaToType(extra) : extra === false ? undefined : 'unknown'
  if (properties.length === 0) return extraType === undefined ? 'Record<string, never>' : `Record<string, ${extraType}>`
  const required = new Set(Array.isArray(schema.required) ? schema.required : [])
  const members = properties.map(([name, property]) => {
    const doc = isSchema(property) ? docText(property.title as string, property.description as string) : ''
    const optional = required.has(name) ? '' : '?'
    const comment = doc === '' ? '' : `/** ${doc.replace(/\n/g, '\n * ')} */\n`
    return `${comment}${propertyKey(name)}${optional}: ${schemaToType(property)}`
  })
  const body = `{\n${members.join('\n')}\n}`
  // an open object keeps its declared fields typed and allows more
  return isSchema(extra) ? `${body} & Record<string, ${extraType}>` : body
}

export function schemaToType(schema: unknown): string {
  if (!isSchema(schema)) return schema === false ? 'never' : 'unknown'
  if (typeof schema.$ref === 'string') return schema.$ref.slice(schemaRefPrefix.length)
  if ('const' in schema) return literal(schema.const)
  if (Array.isArray(schema.enum)) return union(schema.enum.map(literal))
  for (const key of ['oneOf', 'anyOf']) {
    const list = schema[key]
    if (Array.isArray(list)) return union(list.map((item) => schemaToType(item)))
  }
  if (Array.isArray(schema.allOf)) return schema.allOf.map((item) => grouped(schemaToType(item))).join(' & ')
  if (Array.isArray(schema.type)) return union(schema.type.map((type) => typeForType(schema, String(type))))
  if (typeof schema.type === 'string') return typeForType(schema, schema.type)
  if (isSchema(schema.properties)) return objectType(schema)
  return 'unknown'
}

/** Component names a schema refers to, for `import type` lists. */
export function referencedNames(schema: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(schema)) for (const item of schema) referencedNames(item, into)
  else if (isSchema(schema)) {
    if (typeof schema.$ref === 'string' && schema.$ref.startsWith(schemaRefPrefix))
      into.add(schema.$ref.slice(schemaRefPrefix.length))
    for (const [key, value] of Object.entries(schema))
      if (key !== 'enum' && key !== 'const' && key !== 'examples') referencedNames(value, into)
  }
  return into
}
