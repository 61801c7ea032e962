/**
 * Unions made cheap for the values they see most. ajv tries every branch of a oneOf (to know no second one
 * passes) and an anyOf's branches in order, building a verbose error object for each branch that fails:
 * `latest` against BlockNumberOrTag (oneOf [Uint64, BlockTag]) built a pattern error on every request, and a
 * number the tag's enum error. Two changes, both keeping what is accepted and what a refusal says:
 * - in the copy of the schemas the validators are made from (the published document keeps its own), a oneOf
 *   becomes an anyOf in the same order where the two accept the same values: at most one branch is not finite
 *   (an enum or a const) and no finite value passes another branch (checked here, value by value); an anyOf
 *   stops at the first branch that passes, so a number no longer fails the tag's enum;
 * - a validator whose schema is such a union compares its finite values (the block tags) on its first line
 *   (emit-validators.ts): a tag passes without the number branch failing first. Nested unions (a filter's
 *   fromBlock) keep ajv's order.
 */
import type { Ajv, ValidateFunction } from 'ajv'
import { isSchema, parseSchemaRef, type Schema } from './model.js'
import { walkSchema } from './schema-walk.js'

/** Keywords a finite branch may carry beside its enum or const. */
const finiteKeywords = new Set(['type', 'enum', 'const', 'title', 'x-error'])
/** Keywords a union may carry beside its branches for its finite values to pass it outright. */
const unionKeywords = new Set(['anyOf', 'oneOf', 'title', 'x-error'])

export interface UnionContext {
  /** Component schemas by name (the validation copy). */
  components: Record<string, Schema>
  /** An ajv that holds the components, to ask whether a branch accepts a value. */
  probe: Ajv
  /** Where a ref resolves for the probe: `openrpc#/components/schemas/X`. */
  absoluteRef: (ref: string) => string
}

/** Turns every oneOf of `schema` that an anyOf can stand for into one, in place. */
export function oneOfsAsAnyOf(schema: Schema, context: UnionContext): void {
  walkSchema(schema, '', (node) => {
    const branches = node.oneOf
    if (!Array.isArray(branches) || branches.length < 2) return
    const values = branches.map((branch) => finiteValues(branch, context))
    if (values.filter((v) => !v).length > 1 || !exclusive(branches, values, context)) return
    delete node.oneOf
    node.anyOf = branches
  })
}

/**
 * The primitive values that pass `schema` outright because it is (through refs) a union with finite
 * branches: each passes its own branch, and for a oneOf no other. Empty when there are none.
 */
export function finiteFirstValues(schema: Schema, context: UnionContext): (string | number | boolean | null)[] {
  const union = resolve(schema, context)
  if (!isSchema(union) || !Object.keys(union).every((key) => unionKeywords.has(key))) return []
  const branches = union.anyOf ?? union.oneOf
  if (!Array.isArray(branches)) return []
  const values = branches.map((branch) => finiteValues(branch, context))
  if (union.oneOf && !exclusive(branches, values, context)) return []
  const validators = branches.map((branch) => compile(branch, context))
  return values
    .flatMap((finite, i) => (finite ?? []).filter((value) => validators[i]!(value)))
    .filter((value) => value === null || typeof value !== 'object')
    .map((value) => value as string | number | boolean | null)
}

/** A schema with its top-level refs followed to the component they name. */
function resolve(schema: unknown, context: UnionContext): unknown {
  let resolved = schema
  for (let hops = 0; isSchema(resolved) && typeof resolved.$ref === 'string' && hops < 8; hops++) {
    const ref = parseSchemaRef(resolved.$ref.replace(/^[^#]+#/, '#'))
    if (!ref || ref.pointer.length > 0) return undefined
    resolved = context.components[ref.component]
  }
  return resolved
}

/** The values a branch accepts if it is an enum or a const (through refs), else undefined. */
function finiteValues(branch: unknown, context: UnionContext): unknown[] | undefined {
  const schema = resolve(branch, context)
  if (!isSchema(schema) || !Object.keys(schema).every((key) => finiteKeywords.has(key))) return undefined
  if (Array.isArray(schema.enum)) return schema.enum
  return 'const' in schema ? [schema.const] : undefined
}

/** Whether no value of a finite branch passes another branch. */
function exclusive(branches: unknown[], values: (unknown[] | undefined)[], context: UnionContext): boolean {
  if (values.every((v) => v === undefined)) return false
  const validators = branches.map((branch) => compile(branch, context))
  return values.every(
    (finite, i) => !finite || finite.every((value) => validators.every((accepts, j) => j === i || !accepts(value))),
  )
}

function compile(branch: unknown, context: UnionContext): ValidateFunction {
  const copy = structuredClone(branch) as Schema
  walkSchema(copy, '', (node) => {
    if (typeof node.$ref === 'string') node.$ref = context.absoluteRef(node.$ref)
  })
  return context.probe.compile(copy)
}
