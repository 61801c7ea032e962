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
