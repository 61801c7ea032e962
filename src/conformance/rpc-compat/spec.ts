/**
 * execution-apis' own OpenRPC methods and schemas from its `src/` YAML (methods in `eth/`, `debug/`,
 * `txpool/`, `testing/`; schemas in `schemas/`), for the `speconly` tests: a result there is valid when it
 * fits the method's result schema (JSON Schema draft 2019-09, as hive and execution-apis' speccheck use).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Ajv2019, type ValidateFunction } from 'ajv/dist/2019.js'
import { load } from 'js-yaml'

type Method = { name: string; result?: { schema?: object } }

export class ExecutionApisSpec {
  private readonly methods = new Map<string, Method>()
  private readonly schemas: Record<string, unknown> = {}
  private readonly validators = new Map<string, ValidateFunction>()
  private readonly ajv = new Ajv2019({ strict: false, allErrors: false, validateFormats: false })

  constructor(dir: string) {
    for (const sub of readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory())) {
      for (const file of readdirSync(join(dir, sub.name)).filter((f) => f.endsWith('.yaml'))) {
        const doc = load(readFileSync(join(dir, sub.name, file), 'utf8'))
        if (sub.name === 'schemas') Object.assign(this.schemas, doc)
        else for (const method of doc as Method[]) this.methods.set(method.name, method)
      }
    }
  }

  /** Why `result` does not fit `method`'s result schema, or undefined when it does. */
  check(method: string, result: unknown): string | undefined {
    let validate = this.validators.get(method)
    if (!validate) {
      const schema = this.methods.get(method)?.result?.schema
      if (!schema) return `execution-apis has no result schema for ${method}`
      validate = this.ajv.compile({ ...schema, components: { schemas: this.schemas } })
      this.validators.set(method, validate)
    }
    if (validate(result)) return undefined
    const error = validate.errors?.[0]
    return `result does not fit the spec: ${error?.instancePath || '$'} ${error?.message}`
  }
}
