/**
 * GET /docs: the HTML reference generated from the OpenRPC document (generated/docs/index.html), read
 * when first asked for and kept (a third of a megabyte no start needs). Not rate limited: it is a static page,
 * like GET / describing an endpoint.
 */
import { readFileSync } from 'node:fs'
import type { FastifyInstance } from 'fastify'
import { assetUrl } from '../assets.js'

const DOCS_PAGE = assetUrl('generated/docs/index.html')

let page: string | undefined

export function registerDocs(app: FastifyInstance): void {
  app.get('/docs', async (_request, reply) =>
    reply.type('text/html; charset=utf-8').send((page ??= readFileSync(DOCS_PAGE, 'utf8'))),
  )
}
