/**
 * rpc.discover: each endpoint answers with its own bundled OpenRPC document (only the methods it serves),
 * read once from generated/ and kept, since it never changes while the service runs.
 */
import { readFileSync } from 'node:fs'
import type { Endpoint, Methods } from '../../../generated/methods.js'
import type { Handler } from '../context.js'

type Document = Methods['rpc.discover']['result']

const documents = new Map<Endpoint, Document>()

function documentOf(endpoint: Endpoint): Document {
  let document = documents.get(endpoint)
  if (document === undefined) {
    document = JSON.parse(
      readFileSync(new URL(`../../../generated/openrpc.${endpoint}.json`, import.meta.url), 'utf8'),
    ) as Document
    documents.set(endpoint, document)
  }
  return document
}

export const rpc_discover: Handler<'rpc.discover'> = (_params, ctx) => documentOf(ctx.endpoint)
