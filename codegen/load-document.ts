/**
 * Reads the YAML sources of an OpenRPC document (base.yaml, methods/*.yaml, schemas/*.yaml, errors.yaml),
 * merges them with methods sorted by name, and refuses a broken document with every problem listed, each
 * naming the method (and its file) and the field. Without the house rules (a document written elsewhere),
 * examples that contradict their schemas are warnings, not errors. The same pipeline execution-apis used before its Go rewrite:
 * YAML -> merged document -> metaschema validation with @open-rpc/schema-utils-js ($refs are kept).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { validateOpenRPCDocument } from '@open-rpc/schema-utils-js'
import { load } from 'js-yaml'
import { checkDocument } from './check-document.js'
import { checkExamples } from './check-examples.js'
import { toMethodModel } from './method-model.js'
import {
  compareStrings,
  isSchema,
  type LoadedDocument,
  type LoadOptions,
  type OpenRpcDocument,
  type Schema,
} from './model.js'

/** A document that cannot be generated from; `problems` has one line per fault. */
export class DocumentError extends Error {
  readonly problems: readonly string[]

  constructor(problems: readonly string[]) {
    super(`the OpenRPC document has ${problems.length} problem(s):\n  ${problems.join('\n  ')}`)
    this.name = 'DocumentError'
    this.problems = problems
  }
}

function readYaml(dir: string, file: string): unknown {
  try {
    return load(readFileSync(join(dir, file), 'utf8'))
  } catch (err) {
    throw new DocumentError([`${file}: ${(err as Error).message}`])
  }
}

function yamlFiles(dir: string, folder: string): string[] {
  if (!existsSync(join(dir, folder))) return []
  return readdirSync(join(dir, folder))
    .filter((file) => file.endsWith('.yaml') || file.endsWith('.yml'))
    .sort(compareStrings)
    .map((file) => `${folder}/${file}`)
}

/** Merges one map-shaped file per topic into one map, refusing a name defined twice. */
function mergeMaps(dir: string, files: string[], what: string, problems: string[]): Record<string, unknown> {
  const merged: Record<string, unknown> = {}
  const origin: Record<string, string> = {}
  for (const file of files) {
    const map = readYaml(dir, file)
    if (map === undefined || map === null) continue
    if (!isSchema(map)) {
      problems.push(`${file}: expected a map of ${what} names to definitions`)
      continue
    }
    for (const [name, value] of Object.entries(map)) {
      if (name in merged) problems.push(`${file}: ${what} ${name} is already defined in ${origin[name]}`)
      else [merged[name], origin[name]] = [value, file]
    }
  }
  return Object.fromEntries(Object.entries(merged).sort(([a], [b]) => compareStrings(a, b)))
}

type RawMethod = { name: string } & Record<string, unknown>

function readMethods(dir: string, problems: string[]): { methods: RawMethod[]; files: Map<string, string> } {
  const methods: RawMethod[] = []
  const files = new Map<string, string>()
  for (const file of yamlFiles(dir, 'methods')) {
    const list = readYaml(dir, file) ?? []
    if (!Array.isArray(list)) {
      problems.push(`${file}: expected a YAML list of method objects`)
      continue
    }
    list.forEach((method: unknown, i) => {
      if (!isSchema(method) || typeof method.name !== 'string' || method.name === '') {
        problems.push(`${file}: item ${i}: a method object needs a name`)
      } else if (files.has(method.name)) {
        problems.push(`${file}: method ${method.name} is already defined in ${files.get(method.name)}`)
      } else {
        files.set(method.name, file)
        methods.push(method as RawMethod)
      }
    })
  }
  methods.sort((a, b) => compareStrings(a.name, b.name))
  return { methods, files }
}

/** schema-utils reports ajv 6 errors with paths like `.methods[3].params[0]`; name the method instead. */
function metaSchemaProblems(document: OpenRpcDocument, files: Map<string, string>): string[] {
  const result = validateOpenRPCDocument(document as never)
  if (result === true) return []
  const json = result.message.slice(result.message.indexOf('['))
  let errors: { dataPath?: string; instancePath?: string; message?: string; params?: unknown }[]
  try {
    errors = JSON.parse(json)
  } catch {
    return [result.message]
  }
  const lines = errors.map((error) => {
    const path = error.dataPath ?? error.instancePath ?? ''
    const detail = `${error.message ?? 'invalid'} ${JSON.stringify(error.params ?? {})}`
    const match = /^\.methods\[(\d+)\]\.?(.*)$/.exec(path)
    const method = match ? document.methods[Number(match[1])] : undefined
    if (!match || !method) return `document ${path || '(root)'}: ${detail} (OpenRPC metaschema)`
    return `method ${method.name} (${files.get(method.name)}): ${match[2] || '(method)'}: ${detail} (OpenRPC metaschema)`
  })
  return [...new Set(lines)]
}

export async function loadDocument(dir: string, options: LoadOptions = { houseRules: true }): Promise<LoadedDocument> {
  if (!existsSync(join(dir, 'base.yaml'))) throw new DocumentError([`${dir}: no base.yaml`])
  const problems: string[] = []
  const base = readYaml(dir, 'base.yaml')
  if (!isSchema(base)) throw new DocumentError(['base.yaml: expected a map with openrpc and info'])
  if ('methods' in base) problems.push('base.yaml: methods belong in methods/*.yaml')
  const schemas = mergeMaps(dir, yamlFiles(dir, 'schemas'), 'schema', problems) as Record<string, Schema>
  const errors = existsSync(join(dir, 'errors.yaml')) ? mergeMaps(dir, ['errors.yaml'], 'error', problems) : undefined
  const { methods, files } = readMethods(dir, problems)
  const components = errors ? { schemas, errors } : { schemas }
  const document = { ...base, methods, components } as OpenRpcDocument
  if (problems.length > 0) throw new DocumentError(problems)

  problems.push(...checkDocument(document, files, options))
  if (problems.length > 0) throw new DocumentError(problems)
  // every $ref was resolved by checkDocument; nothing is dereferenced (recursive schemas stay references)
  problems.push(...metaSchemaProblems(document, files))
  if (problems.length > 0) throw new DocumentError(problems)

  const models = methods.map((method) => toMethodModel(method, files.get(method.name) ?? ''))
  const sortedSchemas = Object.entries(schemas)
  const exampleProblems = checkExamples(models, sortedSchemas)
  if (options.houseRules && exampleProblems.length > 0) throw new DocumentError(exampleProblems)
  return { document, methods: models, schemas: sortedSchemas, warnings: options.houseRules ? [] : exampleProblems }
}
