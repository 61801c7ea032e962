/**
 * The positional-params check every generated method spec uses, with geth's wording: too many arguments,
 * a missing required argument, or `invalid argument N (name): <problem>`. Trailing optional params may be
 * absent or `null` (geth treats both as "not given").
 */
import type { ErrorObject } from 'ajv'
import { describeValidationErrors } from './describe-error.js'

/** An ajv validator, standalone or compiled: returns false and leaves `errors` on a bad value. */
export interface Validator {
  (data: unknown): boolean
  errors?: ErrorObject[] | null
}

/**
 * An ajv validator's second argument for a value checked on its own, given so the validator does not make
 * its default `{}` on every call (56 B a param, measured with bench/request-path.ts --alloc). Its data is
 * its root and it has no parent, as without the argument.
 */
const TOP_LEVEL = Object.freeze({ instancePath: '' })
type CheckAtTop = (data: unknown, context: typeof TOP_LEVEL) => boolean

export type ParamsCheck = (params: readonly unknown[]) => string | undefined

export function paramChecker(
  names: readonly string[],
  requiredCount: number,
  validators: readonly Validator[],
): ParamsCheck {
  return (params) => {
    if (params.length > names.length) return `too many arguments, want at most ${names.length}`
    for (let i = 0; i < names.length; i++) {
      const value = params[i]
      const required = i < requiredCount
      if (value === undefined || (value === null && !required)) {
        if (required) return `missing value for required argument ${i} (${names[i]})`
        continue
      }
      const validate = validators[i]!
      if ((validate as CheckAtTop)(value, TOP_LEVEL)) continue
      if (value === null) return `missing value for required argument ${i} (${names[i]})`
      return `invalid argument ${i} (${names[i]}): ${describeValidationErrors(validate.errors)}`
    }
    return undefined
  }
}

export function resultChecker(validate: Validator): (result: unknown) => boolean {
  return (result) => validate(result)
}
