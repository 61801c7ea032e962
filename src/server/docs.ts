/**
 * GET /docs: the HTML reference generated from the OpenRPC document (generated/docs/index.html), read
 * once at start. Not rate limited: it is a static page, like GET / describing an endpoint.
 */
import { readFileSync } from 'node:fs'
import type { FastifyInstance } from 'fastify'

const DOCS_PAGE = new URL('../../generated/docs/index.html', import.meta.url)

export function registerDocs(app: FastifyInstance): void {
  const page = readFileSync(DOCS_PAGE, 'utf8')
  app.get('/docs', async (_request, reply) => reply.type('text/html; charset=utf-8').send(page))
}
