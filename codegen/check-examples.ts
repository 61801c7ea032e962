/**
 * Runs every example pairing through the same checks the service applies (params) and the conformance
 * tests apply (result), so an example that contradicts its own schema fails generation.
 */
import { paramChecker, type Validator } from '../src/validation/check-params.js'
import { describeValidationErrors } from '../src/validation/describe-error.js'
import { buildValidators } from './ajv-build.js'
import type { MethodModel, Schema } from './model.js'

export function checkExamples(methods: MethodModel[], schemas: [string, Schema][]): string[] {
  let build: ReturnType<typeof buildValidators>
  try {
    build = buildValidators(methods, schemas)
  } catch (err) {
    return [`schemas do not compile: ${(err as Error).message}`]
  }
  const compiled = (name: string): Validator => {
    const validate = build.ajv.getSchema(name)
    if (!validate) throw new Error(`no schema ${name}`)
    return validate
  }
  const problems: string[] = []
  for (const method of methods) {
    const validators = build.byMethod.get(method.name)
    if (!validators) continue
    const names = method.params.map((param) => param.name)
    const required = method.params.filter((param) => param.required).length
    let checkParams: ReturnType<typeof paramChecker>
    let checkResult: ReturnType<typeof compiled>
    try {
      checkParams = paramChecker(names, required, validators.params.map(compiled))
      checkResult = compiled(validators.result)
    } catch (err) {
      problems.push(`method ${method.name} (${method.file}): schemas do not compile: ${(err as Error).message}`)
      continue
    }
    method.examples.forEach((example, i) => {
      const at = `method ${method.name} (${method.file}): examples[${i}] "${example.name}"`
      const paramsProblem = checkParams(example.params.map((param) => param.value))
      if (paramsProblem) problems.push(`${at}.params: ${paramsProblem}`)
      if (example.result && !checkResult(example.result.value)) {
        problems.push(`${at}.result: ${describeValidationErrors(checkResult.errors)}`)
      }
    })
  }
  return problems
}
