import { Ajv } from 'ajv'
import { describe, expect, test } from 'vitest'
import { describeValidationErrors } from './describe-error.js'

// the options generated/validators.js is built with (codegen/ajv-build.ts): first error only, verbose
const ajv = new Ajv({ strict: false, allErrors: false, verbose: true })

describe('describing a failed validation', () => {
  test('a value every alternative refuses for the same missing field names that field', () => {
    const transaction = (kind: string) => ({
      type: 'object',
      required: ['type'],
      properties: { type: { const: kind } },
    })
    const validate = ajv.compile({ oneOf: [transaction('0x1'), transaction('0x2')] })
    expect(validate({ nonce: '0x0' })).toBe(false)
    expect(describeValidationErrors(validate.errors)).toBe('missing required field "type"')
  })
})
