import { describe, expect, test } from 'vitest'
import { schemaToType } from './schema-to-type.js'

describe('printing a JSON schema as a TypeScript type', () => {
  test.each([
    ['a component reference becomes the component name', { $ref: '#/components/schemas/Address' }, 'Address'],
    ['a hex pattern becomes a 0x template literal', { type: 'string', pattern: '^0x[0-9a-f]*$' }, '`0x${string}`'],
    ['a plain string stays string', { type: 'string' }, 'string'],
    ['an enum becomes a union of literals', { type: 'string', enum: ['latest', "it's"] }, "'latest' | 'it\\'s'"],
    [
      'oneOf with NotFound becomes a nullable union',
      { oneOf: [{ $ref: '#/components/schemas/NotFound' }, { $ref: '#/components/schemas/Block' }] },
      'NotFound | Block',
    ],
    [
      'an array of a union is parenthesised',
      { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'boolean' }] } },
      '(string | boolean)[]',
    ],
    [
      'a map becomes a Record',
      { type: 'object', additionalProperties: { $ref: '#/components/schemas/Uint' } },
      'Record<string, Uint>',
    ],
    ['a type list becomes a union', { type: ['string', 'null'] }, 'string | null'],
    [
      'allOf becomes an intersection',
      { allOf: [{ $ref: '#/components/schemas/A' }, { $ref: '#/components/schemas/B' }] },
      'A & B',
    ],
    ['a schema without a type is unknown', {}, 'unknown'],
  ])('%s', (_, schema, type) => {
    expect(schemaToType(schema)).toBe(type)
  })

  test('an object marks fields outside `required` optional and quotes odd keys', () => {
    const type = schemaToType({
      type: 'object',
      required: ['hash'],
      properties: { hash: { $ref: '#/components/schemas/Hash32' }, 'x-y': { type: 'boolean', description: 'a flag' } },
    })
    expect(type).toBe("{\nhash: Hash32\n/** a flag */\n'x-y'?: boolean\n}")
  })

  test("a ref into a component's property prints that property's type", () => {
    const schemas = {
      Payload: { type: 'object', properties: { 'parent/hash': { $ref: '#/components/schemas/Hash32' } } },
    }
    expect(schemaToType({ $ref: '#/components/schemas/Payload/properties/parent~1hash' }, schemas)).toBe('Hash32')
  })

  test('a ref with constraints beside it is narrowed by them, and titles beside it change nothing', () => {
    const status = { $ref: '#/components/schemas/Status', title: 'status', enum: ['VALID', 'INVALID'] }
    expect(schemaToType(status)).toBe("Status & ('VALID' | 'INVALID')")
    expect(schemaToType({ $ref: '#/components/schemas/Status', title: 'status' })).toBe('Status')
  })
})
