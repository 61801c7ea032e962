/**
 * close() stops accepting and lets in-flight requests finish (fastify answers new requests on kept-alive
 * connections with 503 meanwhile). Their replies say `Connection: close`, so each connection ends with its
 * answer instead of idling until the keep-alive timeout; one still busy after SHUTDOWN_GRACE_MS is cut.
 * The header is added where JSON replies are sent (sendJson, and the JSON-RPC POSTs' writer), not in an
 * onSend hook: a hook on every request costs every request, for the few that are in flight at shutdown.
 * New requests on kept-alive connections go to fastify then (post-listener.ts), which answers them 503.
 */
import type { FastifyInstance, FastifyReply } from 'fastify'
import { SHUTDOWN_GRACE_MS } from '../limits.js'

/** The HTTP servers of apps that are closing. */
const draining = new WeakSet<object>()

export function drainOnClose(app: FastifyInstance): void {
  let timer: NodeJS.Timeout | undefined
  app.addHook('preClose', (done) => {
    draining.add(app.server)
    timer = setTimeout(() => app.server.closeAllConnections(), SHUTDOWN_GRACE_MS)
    timer.unref()
    done()
  })
  app.addHook('onClose', async () => clearTimeout(timer))
}

/** True once the app of this HTTP server is closing. */
export function isDraining(server: object): boolean {
  return draining.has(server)
}

/** Marks the reply `Connection: close` when its server is shutting down. */
export function closeIfDraining(reply: FastifyReply): void {
  if (draining.has(reply.server.server)) reply.header('connection', 'close')
}
