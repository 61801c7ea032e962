/**
 * The project's house rules for its own document (openrpc/), on top of what any document needs
 * (check-document.ts): every schema titled and described with a PascalCase name, every method summarised
 * and described with by-position camelCase params that say whether they are required (OpenRPC's silent
 * default is optional), the endpoints it is served on, and at least one example whose params are named as
 * the method's. A document written elsewhere is generated from without them.
 */
import { isSchema, type OpenRpcDocument } from './model.js'

const camelCase = /^[a-z][A-Za-z0-9]*$/
const pascalCase = /^[A-Z][A-Za-z0-9]*$/

function schemaRuleProblems(document: OpenRpcDocument): string[] {
  const problems: string[] = []
  for (const [name, schema] of Object.entries(document.components.schemas)) {
    const at = `schema ${name}`
    if (!pascalCase.test(name))
      problems.push(`${at}: the name becomes a TypeScript type; use PascalCase letters and digits`)
    if (isSchema(schema) && (typeof schema.title !== 'string' || typeof schema.description !== 'string'))
      problems.push(`${at}: needs a title and a description`)
  }
  return problems
}

function paramRuleProblems(method: Record<string, unknown>, at: string): string[] {
  const params = Array.isArray(method.params) ? method.params : []
  return params.flatMap((param: unknown, i) => {
    if (!isSchema(param)) return []
    const where = `${at}: params[${i}]`
    const problems: string[] = []
    if (typeof param.name !== 'string' || !camelCase.test(param.name))
      problems.push(`${where}.name: expected a camelCase identifier, got ${JSON.stringify(param.name)}`)
    if (typeof param.required !== 'boolean')
      problems.push(
        `${where} (${String(param.name)}).required: expected true or false (OpenRPC's default is false; say which)`,
      )
    return problems
  })
}

function exampleRuleProblems(method: Record<string, unknown>, at: string): string[] {
  const examples = method.examples
  if (!Array.isArray(examples) || examples.length === 0)
    return [`${at}: examples: at least one example pairing is required`]
  const params = Array.isArray(method.params) ? method.params.filter(isSchema) : []
  return examples.flatMap((example: unknown, i) => {
    if (!isSchema(example) || !Array.isArray(example.params)) return []
    return example.params.flatMap((value: unknown, j) => {
      const name = isSchema(value) ? value.name : undefined
      return j < params.length && name !== params[j]?.name
        ? [`${at}: examples[${i}].params[${j}].name: expected ${String(params[j]?.name)}, got ${JSON.stringify(name)}`]
        : []
    })
  })
}

export function houseRuleProblems(document: OpenRpcDocument, files: Map<string, string>): string[] {
  const problems = schemaRuleProblems(document)
  for (const method of document.methods) {
    const at = `method ${method.name} (${files.get(method.name)})`
    for (const field of ['summary', 'description']) {
      if (typeof method[field] !== 'string' || method[field] === '') problems.push(`${at}: ${field}: missing`)
    }
    if (method.paramStructure !== 'by-position' && method.paramStructure !== 'by-name')
      problems.push(`${at}: paramStructure: expected by-position`)
    if (method['x-endpoints'] === undefined)
      problems.push(`${at}: x-endpoints: missing; list general and/or flashblocks`)
    problems.push(...paramRuleProblems(method, at), ...exampleRuleProblems(method, at))
  }
  return problems
}
