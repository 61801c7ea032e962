/**
 * rpc.discover: each endpoint answers with its own bundled OpenRPC document (only the methods it serves;
 * the dev-node methods only where they are on), read once from generated/ and kept, since it never
 * changes while the service runs.
 */
import { readFileSync } from 'node:fs'
import { type Endpoint, type Methods, methodTable } from '../../../generated/methods.js'
import { assetUrl } from '../../assets.js'
import type { Handler } from '../context.js'

type Document = Methods['rpc.discover']['result']

const documents = new Map<string, Document>()

function documentOf(endpoint: Endpoint, devMethods: boolean): Document {
  const key = `${endpoint}:${devMethods}`
  let document = documents.get(key)
  if (document === undefined) {
    document = JSON.parse(readFileSync(assetUrl(`generated/openrpc.${endpoint}.json`), 'utf8')) as Document
    if (!devMethods) {
      const served = (method: { name: string }) => !methodTable[method.name as keyof typeof methodTable]?.devNode
      document = { ...document, methods: (document.methods as { name: string }[]).filter(served) }
    }
    documents.set(key, document)
  }
  return document
}

export const rpc_discover: Handler<'rpc.discover'> = (_params, ctx) => documentOf(ctx.endpoint, ctx.dev !== undefined)
