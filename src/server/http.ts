/**
 * GET on an endpoint describes it (on `/` for a browser, the live page); the same route takes the endpoint's
 * WebSocket upgrades. POST on an endpoint is JSON-RPC, answered before fastify (post-listener.ts, rpc-post.ts).
 */
import type { WebsocketHandler } from '@fastify/websocket'
import type { FastifyInstance, RouteHandlerMethod } from 'fastify'
import type { Config } from '../config.js'
import type { Endpoint } from '../../generated/methods.js'
import { describeEndpoint } from './describe.js'
import { ENDPOINT_PATHS } from './endpoints.js'
import { sendJson } from './http-errors.js'
import { LIVE_PAGE, wantsHtml } from './live.js'

/** GET on an endpoint: its JSON description, or on `/` for a browser the live page. */
function getHandler(endpoint: Endpoint, config: Config): RouteHandlerMethod {
  return async (request, reply) =>
    endpoint === 'general' && wantsHtml(request)
      ? reply.type('text/html; charset=utf-8').send(LIVE_PAGE)
      : sendJson(reply, 200, describeEndpoint(endpoint, config))
}

/** `wsHandler`: the WebSocket transport's upgrade handler for this endpoint (same path; plain GET stays HTTP). */
export function registerGetRoute(
  app: FastifyInstance,
  endpoint: Endpoint,
  config: Config,
  wsHandler?: WebsocketHandler,
): void {
  const url = ENDPOINT_PATHS[endpoint]
  app.route({ method: 'GET', url, handler: getHandler(endpoint, config), ...(wsHandler ? { wsHandler } : {}) })
}
