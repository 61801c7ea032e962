/**
 * The live page: GET /live (and GET / from a browser, see http.ts) shows the chain as it moves. Its HTML,
 * script and style are files of the repository (src/server/live/), read once at start and served as they
 * are: no build step, nothing loaded from outside the node. Not rate limited, like /docs; the page's own
 * WebSocket messages are, like any client's.
 */
import { readFileSync } from 'node:fs'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { assetUrl } from '../assets.js'

const asset = (name: string) => readFileSync(assetUrl(`src/server/live/${name}`), 'utf8')
const ASSETS = [
  ['/live/live.js', 'text/javascript; charset=utf-8', asset('live.js')],
  ['/live/live.css', 'text/css; charset=utf-8', asset('live.css')],
] as const

/** The page's HTML (also GET / for a browser). */
export const LIVE_PAGE = asset('index.html')

/** A browser navigating to the URL: it asks for HTML before anything else (curl and RPC clients do not). */
export function wantsHtml(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? ''
  const html = accept.indexOf('text/html')
  const json = accept.indexOf('application/json')
  return html !== -1 && (json === -1 || html < json)
}

export function registerLivePage(app: FastifyInstance): void {
  app.get('/live', async (_request, reply) => reply.type('text/html; charset=utf-8').send(LIVE_PAGE))
  for (const [path, type, body] of ASSETS) app.get(path, async (_request, reply) => reply.type(type).send(body))
}
