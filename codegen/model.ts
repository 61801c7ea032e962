/**
 * The shapes the generators work on: the merged OpenRPC document as loaded from YAML, and the per-method
 * model every emitter reads, so no emitter has to know the OpenRPC object layout or its defaults.
 */
import type { Endpoint } from '../src/rpc/method-table.js'

/** A JSON Schema object (draft-07) as written in the document; `true`/`false` schemas are not used. */
export type Schema = { [keyword: string]: unknown }

export type { Endpoint }
export const endpoints: readonly Endpoint[] = ['general', 'flashblocks']

interface ParamModel {
  name: string
  required: boolean
  schema: Schema
  description?: string
}

export interface ExampleModel {
  /** `x-error-code`: the example shows a refusal with this code instead of a result. */
  errorCode?: number
  name: string
  params: { name: string; value: unknown }[]
  result?: { name: string; value: unknown }
  /** `x-reproducible`: any fresh node of the chain answers exactly this result (conformance compares it). */
  reproducible: boolean
  /** `x-endpoint`: the endpoint the example was taken on, when not the general one. */
  endpoint?: Endpoint
  /** `x-setup`: a method whose first example runs first; its result replaces this example's first param (a filter or subscription id). */
  setup?: string
}

export interface MethodModel {
  name: string
  /** The source file, relative to the document folder, for error messages. */
  file: string
  summary: string
  description: string
  params: ParamModel[]
  result: { name: string; schema: Schema }
  endpoints: Endpoint[]
  pending: boolean
  extension: boolean
  websocketOnly: boolean
  /** `x-dev-node`: a dev-node method (state edits, snapshots, time travel): served only where the service turns them on. */
  devNode: boolean
  /** Set on an alias: the method it dispatches to. */
  aliasOf?: string
  examples: ExampleModel[]
}

/** The merged document with `$ref`s kept, methods sorted by name. */
export interface OpenRpcDocument {
  openrpc: string
  info: { title: string; version: string; description?: string; [key: string]: unknown }
  servers?: { name: string; url: string }[]
  methods: ({ name: string } & Record<string, unknown>)[]
  components: { schemas: Record<string, Schema>; errors?: Record<string, unknown> }
  [key: string]: unknown
}

export interface LoadedDocument {
  document: OpenRpcDocument
  methods: MethodModel[]
  /** Component schemas sorted by name. */
  schemas: [name: string, schema: Schema][]
  /**
   * Examples that contradict their own schemas, in a document generated without the house rules (where
   * they are errors): the document's authors' to fix; the schemas are generated from all the same.
   */
  warnings: string[]
}

/** A method's `x-endpoints`; a method that does not say is served on the general endpoint. */
export function endpointsOf(method: Record<string, unknown>): Endpoint[] {
  const served = method['x-endpoints']
  return Array.isArray(served) ? (served as Endpoint[]).slice() : ['general']
}

/** Code-unit order, so sorting does not depend on the machine's locale. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

export function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export const schemaRefPrefix = '#/components/schemas/'

/** How a document is checked: see checkDocument. */
export interface LoadOptions {
  /**
   * The project's house rules on top of what OpenRPC and the generators need (explicit x-endpoints and
   * `required`, by-position params, camelCase param names, PascalCase schema names, titles, descriptions,
   * at least one example per method). Off for a document written elsewhere, such as execution-apis'.
   */
  houseRules: boolean
}

/** A `$ref` to a component schema: its name and, for a ref into its inside, the JSON pointer's segments. */
export interface SchemaRef {
  component: string
  pointer: string[]
}

/**
 * `#/components/schemas/Name` or `#/components/schemas/Name/properties/field` (JSON pointer, RFC 6901,
 * inside a URI fragment); undefined for any other ref.
 */
export function parseSchemaRef(ref: unknown): SchemaRef | undefined {
  if (typeof ref !== 'string' || !ref.startsWith(schemaRefPrefix)) return undefined
  let segments: string[]
  try {
    segments = ref
      .slice(schemaRefPrefix.length)
      .split('/')
      .map((segment) => decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~'))
  } catch {
    return undefined
  }
  const [component = '', ...pointer] = segments
  return component === '' ? undefined : { component, pointer }
}

/** The schema a component ref points at, or undefined when nothing is there. */
export function resolveSchemaRef(ref: SchemaRef, schemas: Readonly<Record<string, unknown>>): Schema | undefined {
  let node: unknown = Object.hasOwn(schemas, ref.component) ? schemas[ref.component] : undefined
  for (const segment of ref.pointer) {
    if (Array.isArray(node)) node = /^(0|[1-9][0-9]*)$/.test(segment) ? node[Number(segment)] : undefined
    else node = isSchema(node) && Object.hasOwn(node, segment) ? node[segment] : undefined
  }
  return isSchema(node) ? node : undefined
}
