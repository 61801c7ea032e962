/**
 * CORS: public RPCs are called from browser pages. Every reply carries `Access-Control-Allow-Origin: *` and
 * exposes the rate limit headers; OPTIONS preflights are answered by @fastify/cors.
 *
 * The plugin answers preflights only (a scope of its own holding its `OPTIONS *` route): its per-request hook
 * spreads its options and resolves the origin on every request, a measurable part of a cheap JSON-RPC call
 * for two constant headers. Routes get those headers from a hook added to each as it is registered; the
 * JSON-RPC POSTs (answered before fastify) and the 404 and error replies, which no route hook reaches, get
 * them from json-reply.ts's JSON_HEADERS.
 */
import cors from '@fastify/cors'
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'

/** Headers a browser page may read from our replies: the rate limit state. */
const EXPOSED_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy', 'Retry-After']

/** The headers every reply carries, as @fastify/cors would write them for `origin: '*'`. */
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': EXPOSED_HEADERS.join(', '),
}

function addCorsHeaders(_request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  reply.headers(CORS_HEADERS)
  done()
}

function hooks<T>(value: T | T[] | undefined): T[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value]
}

/** Call before any route is registered: the hook is added to routes registered after it. */
export async function installCors(app: FastifyInstance): Promise<void> {
  app.addHook('onRoute', (route) => {
    const methods = hooks(route.method)
    if (methods.includes('OPTIONS')) return
    route.onRequest = [addCorsHeaders, ...hooks(route.onRequest)]
  })
  await app.register(async (preflight) => {
    await preflight.register(cors, {
      origin: '*',
      methods: ['GET', 'POST', 'OPTIONS'],
      exposedHeaders: EXPOSED_HEADERS,
      maxAge: 86_400,
    })
  })
}
