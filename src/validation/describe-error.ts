/**
 * Turns the errors of a failed ajv validation (verbose, first error only) into the readable problem of a
 * -32602 message: `expected a 20-byte hex address (0x + 40 hex digits), got "0x12"`,
 * `hex quantity has leading zeros`, `field "gas": expected boolean, got string`. Never an ajv dump.
 *
 * The schema's `x-error` phrase says what was expected; for unions (oneOf/anyOf) the branch that got
 * furthest with the value is described, so `"0x01"` against "number or tag" still reports the leading zeros.
 */
import type { ErrorObject } from 'ajv'

type Schema = Record<string, unknown>

function typeOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  return typeof value
}

function shown(value: unknown): string {
  if (typeof value === 'object' && value !== null) return typeOf(value)
  const json = JSON.stringify(value) ?? String(value)
  return json.length > 80 ? `${json.slice(0, 77)}..."` : json
}

function schemaOf(error: ErrorObject): Schema {
  const parent = error.parentSchema
  return typeof parent === 'object' && parent !== null ? (parent as Schema) : {}
}

/** What a schema accepts, as a phrase: its x-error, else built from enum/const/type/title. */
function expectation(schema: Schema): string {
  if (typeof schema['x-error'] === 'string') return schema['x-error']
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`
  if ('const' in schema) return JSON.stringify(schema.const)
  if (typeof schema.type === 'string') return schema.type
  if (Array.isArray(schema.type)) return schema.type.join(' or ')
  if (typeof schema.title === 'string') return schema.title
  return 'a valid value'
}

/** geth's specific hex complaints, found by repairing the value and re-testing the pattern. */
function hexProblem(value: string, pattern: string): string | undefined {
  const re = new RegExp(pattern, 'u')
  if (!value.startsWith('0x') && /^[0-9a-fA-F]+$/.test(value) && re.test(`0x${value}`))
    return 'hex string without 0x prefix'
  const stripped = value.replace(/^0x0+(?=[0-9a-fA-F])/, '0x')
  if (stripped !== value && re.test(stripped)) return 'hex quantity has leading zeros'
  if (/^0x[0-9a-fA-F]*$/.test(value) && value.length % 2 === 1 && re.test(`0x0${value.slice(2)}`))
    return 'hex string has odd length'
  // a quantity too long for its field (64-bit block numbers and indexes, 256-bit amounts): geth's text
  for (const bits of [64, 256]) {
    const digits = bits / 4
    const fits = (n: number) => re.test(`0x${'f'.repeat(n)}`)
    if (fits(digits) && !fits(digits + 1) && new RegExp(`^0x[1-9a-fA-F][0-9a-fA-F]{${digits},}$`).test(stripped))
      return `hex number > ${bits} bits`
  }
  return undefined
}

const bounds: Record<string, string> = {
  maximum: 'at most',
  minimum: 'at least',
  exclusiveMaximum: 'below',
  exclusiveMinimum: 'above',
  maxItems: 'at most',
  minItems: 'at least',
  maxLength: 'at most',
  minLength: 'at least',
}

function describeOne(error: ErrorObject): string {
  const schema = schemaOf(error)
  const params = error.params as Record<string, unknown>
  switch (error.keyword) {
    case 'type':
      return `expected ${expectation(schema)}, got ${typeOf(error.data)}`
    case 'pattern': {
      const special = typeof error.data === 'string' ? hexProblem(error.data, String(params.pattern)) : undefined
      return special ?? `expected ${expectation(schema)}, got ${shown(error.data)}`
    }
    case 'enum':
    case 'const':
      return `expected ${expectation(schema)}, got ${shown(error.data)}`
    case 'required':
      return `missing required field "${String(params.missingProperty)}"`
    case 'additionalProperties':
      return `unknown field "${String(params.additionalProperty)}"`
    case 'maximum':
    case 'minimum':
    case 'exclusiveMaximum':
    case 'exclusiveMinimum':
      return `expected a number ${bounds[error.keyword]} ${String(params.limit)}, got ${shown(error.data)}`
    case 'maxItems':
    case 'minItems':
      return `expected ${bounds[error.keyword]} ${String(params.limit)} items, got ${Array.isArray(error.data) ? error.data.length : 0}`
    case 'maxLength':
    case 'minLength':
      return `expected ${bounds[error.keyword]} ${String(params.limit)} characters, got ${String(error.data).length}`
    default:
      return `expected ${expectation(schema)}; the value ${error.message ?? 'is invalid'}`
  }
}

function depth(error: ErrorObject): number {
  return error.instancePath === '' ? 0 : error.instancePath.split('/').length - 1
}

/** Picks the errors worth describing for a failed union: the branch that got deepest into the value. */
function describeUnion(errors: readonly ErrorObject[], union: ErrorObject): Described {
  const branches = errors.slice(0, -1)
  if (branches.length === 0)
    return [union, `expected exactly one of the alternatives (${expectation(schemaOf(union))})`]
  const deepest = Math.max(...branches.map(depth))
  if (deepest > depth(union)) {
    const index = branches.findLastIndex((e) => depth(e) === deepest)
    return describe(branches.slice(0, index + 1))
  }
  // branches whose type matched the value failed on content: those say the most
  const matched = branches.filter((e) => e.keyword !== 'type')
  for (const error of matched) {
    if (error.keyword === 'pattern' && typeof error.data === 'string') {
      const special = hexProblem(error.data, String((error.params as Record<string, unknown>).pattern))
      if (special) return [union, special]
    }
  }
  const own = schemaOf(union)['x-error']
  // every alternative failed on the same content (all transaction types need `type`): that is the problem
  const problems = new Set(matched.map(describeOne))
  if (typeof own !== 'string' && problems.size === 1) return [union, [...problems][0]!]
  const phrase =
    typeof own === 'string' ? own : [...new Set(branches.map((e) => expectation(schemaOf(e))))].join(' or ')
  return [union, `expected ${phrase}, got ${matched.length > 0 ? shown(union.data) : typeOf(union.data)}`]
}

/** The error whose position is reported, and the problem found there. */
type Described = [where: ErrorObject, problem: string]

function describe(errors: readonly ErrorObject[]): Described {
  const last = errors[errors.length - 1]!
  return last.keyword === 'oneOf' || last.keyword === 'anyOf' ? describeUnion(errors, last) : [last, describeOne(last)]
}

/** `field "accessList[0].address": ` for an error inside the value; empty at the top. */
function at(error: ErrorObject): string {
  if (error.instancePath === '') return ''
  const path = error.instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part}`))
    .join('')
  return path.startsWith('.') ? `field "${path.slice(1)}": ` : `item ${path}: `
}

/** The readable problem for the errors ajv left on a validator that returned false. */
export function describeValidationErrors(errors: readonly ErrorObject[] | null | undefined): string {
  if (!errors || errors.length === 0) return 'invalid value'
  const [where, problem] = describe(errors)
  return `${at(where)}${problem}`
}
