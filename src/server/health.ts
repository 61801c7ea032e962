/**
 * GET /health (the process answers) and GET /ready (it should be sent traffic), for load balancers and
 * orchestrators. /ready is 503 with a JSON reason while this process would serve stale answers, as the
 * backend judges it (Backend.readiness(): src/chain/readiness.ts, src/follower/readiness.ts).
 */
import type { FastifyInstance } from 'fastify'
import type { Readiness } from '../capabilities/backend-status.js'
import { sendJson } from './http-errors.js'

export function registerHealth(app: FastifyInstance, readiness: () => Readiness): void {
  app.get('/health', async (_request, reply) => sendJson(reply, 200, { alive: true }))
  app.get('/ready', async (_request, reply) => {
    const state = readiness()
    return sendJson(reply, state.ready ? 200 : 503, state)
  })
}
