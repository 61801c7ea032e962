/**
 * Visits every subschema of a draft-07 schema with a readable path (`properties.to.oneOf[1]`), so checks
 * can name the exact spot. Values of `enum`, `const`, `default` and `examples` are data and
 * are not descended into.
 */
import { isSchema, type Schema } from './model.js'

export const draft07Keywords = new Set([
  '$id',
  '$schema',
  '$ref',
  '$comment',
  'title',
  'description',
  'default',
  'readOnly',
  'writeOnly',
  'examples',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'additionalItems',
  'items',
  'maxItems',
  'minItems',
  'uniqueItems',
  'contains',
  'maxProperties',
  'minProperties',
  'required',
  'additionalProperties',
  'definitions',
  'properties',
  'patternProperties',
  'dependencies',
  'propertyNames',
  'const',
  'enum',
  'type',
  'format',
  'contentMediaType',
  'contentEncoding',
  'if',
  'then',
  'else',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
])

const single = ['additionalItems', 'additionalProperties', 'contains', 'propertyNames', 'not', 'if', 'then', 'else']
const lists = ['allOf', 'anyOf', 'oneOf']
const maps = ['properties', 'patternProperties', 'definitions']

export type SchemaVisitor = (schema: Schema, path: string) => void

function join(path: string, segment: string): string {
  return path === '' ? segment : `${path}.${segment}`
}

export function walkSchema(schema: unknown, path: string, visit: SchemaVisitor): void {
  if (!isSchema(schema)) return
  visit(schema, path)
  for (const key of single) walkSchema(schema[key], join(path, key), visit)
  for (const key of lists) {
    const list = schema[key]
    if (Array.isArray(list)) list.forEach((item, i) => walkSchema(item, `${join(path, key)}[${i}]`, visit))
  }
  for (const key of maps) {
    const map = schema[key]
    if (isSchema(map))
      for (const [name, item] of Object.entries(map)) walkSchema(item, join(path, `${key}.${name}`), visit)
  }
  const items = schema.items
  if (Array.isArray(items)) items.forEach((item, i) => walkSchema(item, `${join(path, 'items')}[${i}]`, visit))
  else walkSchema(items, join(path, 'items'), visit)
  const dependencies = schema.dependencies
  if (isSchema(dependencies)) {
    for (const [name, item] of Object.entries(dependencies)) walkSchema(item, join(path, `dependencies.${name}`), visit)
  }
}
