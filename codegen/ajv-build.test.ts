import { describe, expect, test } from 'vitest'
import { buildValidators } from './ajv-build.js'
import type { MethodModel } from './model.js'

const method: MethodModel = {
  name: 'x_note',
  file: 'methods/x.yaml',
  summary: '',
  description: '',
  params: [],
  result: { name: 'note', schema: { $ref: '#/components/schemas/Note' } },
  endpoints: ['general'],
  pending: false,
  extension: false,
  websocketOnly: false,
  devNode: false,
  examples: [],
}

describe('building the validators', () => {
  test('a property named like a prose keyword (description, default) is still checked, and enum data is kept whole', () => {
    const note = {
      title: 'Note',
      description: 'a note',
      type: 'object',
      properties: {
        description: { type: 'string' },
        default: { type: 'boolean' },
        kind: { enum: [{ description: 'a' }] },
      },
    }
    const { ajv } = buildValidators([method], [['Note', note]])
    const validate = ajv.getSchema('x_note_result')!
    expect(validate({ description: 'text', default: true, kind: { description: 'a' } })).toBe(true)
    expect(validate({ description: 1 })).toBe(false)
    expect(validate({ default: 'yes' })).toBe(false)
    expect(validate({ kind: {} })).toBe(false)
  })
})

describe('unions in the validators', () => {
  const uint = { type: 'string', pattern: '^0x[0-9a-f]+$' }
  const tag = { type: 'string', enum: ['latest', 'pending'] }
  const build = (note: unknown, extra: [string, unknown][] = []) => {
    const built = buildValidators([method], [['Note', note], ...extra] as [string, Record<string, unknown>][])
    const root = built.ajv.getSchema('openrpc')!.schema as { components: { schemas: Record<string, unknown> } }
    return {
      validate: built.ajv.getSchema('x_note_result')!,
      checked: root.components.schemas.Note,
      first: built.finiteFirst.x_note_result,
    }
  }

  test('a oneOf of a number and a tag is checked as an anyOf in the same order, its tags answered first, accepting what the oneOf accepted', () => {
    const { validate, checked, first } = build(
      {
        oneOf: [{ $ref: '#/components/schemas/Uint' }, { $ref: '#/components/schemas/Tag' }],
        'x-error': 'a number or tag',
      },
      [
        ['Uint', uint],
        ['Tag', tag],
      ],
    )
    expect(checked).toEqual({
      anyOf: [{ $ref: '#/components/schemas/Uint' }, { $ref: '#/components/schemas/Tag' }],
      'x-error': 'a number or tag',
    })
    expect(first).toEqual(['latest', 'pending'])
    for (const good of ['latest', 'pending', '0x1a']) expect(validate(good)).toBe(true)
    for (const bad of ['safe', '0xZ', 1, null]) expect(validate(bad)).toBe(false)
  })

  test('a oneOf whose tag another branch accepts too stays a oneOf, and its tag is not answered first (it matches twice: refused)', () => {
    const { validate, checked, first } = build({ oneOf: [{ type: 'string' }, tag] })
    expect(checked).toEqual({ oneOf: [{ type: 'string' }, tag] })
    expect(first).toBeUndefined()
    expect(validate('latest')).toBe(false)
    expect(validate('other')).toBe(true)
  })

  test('a oneOf with two open branches stays a oneOf, its const answered first; an anyOf keeps its order, its tags answered first', () => {
    const twoOpen = { oneOf: [uint, { type: 'number' }, { const: 'none' }] }
    expect(build(twoOpen)).toMatchObject({ checked: twoOpen, first: ['none'] })
    const anyOf = { anyOf: [uint, { type: 'number' }, tag] }
    expect(build(anyOf)).toMatchObject({ checked: anyOf, first: ['latest', 'pending'] })
    const withType = { type: 'string', anyOf: [uint, tag] }
    expect(build(withType).first).toBeUndefined()
  })
})
