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
}

/** Code-unit order, so sorting does not depend on the machine's locale. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

export function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export const schemaRefPrefix = '#/components/schemas/'
