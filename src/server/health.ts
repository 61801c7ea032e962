/**
 * GET /health (the process answers) and GET /ready (it should be sent traffic), for load balancers and
 * orchestrators. /ready is 503 with a JSON reason while this process would serve stale answers: a follower
 * whose upstream is unreachable, whose head lags the wall clock by more than READY_MAX_HEAD_LAG_BLOCKS, or
 * whose flashblocks feed is down or silent; an embedded chain that stopped sealing blocks.
 */
import type { FastifyInstance } from 'fastify'
import type { Chain } from '../chain/chain.js'
import type { FollowerBackend } from '../follower/backend.js'
import { READY_MAX_HEAD_LAG_BLOCKS } from '../limits.js'
import { sendJson } from './http-errors.js'

export type Readiness =
  | { ready: true; head: number; lagBlocks: number }
  | { ready: false; reason: string; head?: number; lagBlocks?: number }

/** Blocks between `since` and now at one block per `intervalMs`, rounded down. */
function blocksSince(since: number, intervalMs: number): number {
  return Math.max(0, Math.floor((Date.now() - since) / intervalMs))
}

/**
 * The embedded chain is ready while it seals blocks: the last one (or the start, before the first) is at
 * most READY_MAX_HEAD_LAG_BLOCKS block times old.
 */
export function chainReadiness(chain: Chain, blockTimeMs: number): () => Readiness {
  let lastSealedAt = Date.now()
  chain.events.on('block', () => {
    lastSealedAt = Date.now()
  })
  return () => {
    const head = Number(chain.store.height)
    const lagBlocks = blocksSince(lastSealedAt, blockTimeMs)
    if (lagBlocks > READY_MAX_HEAD_LAG_BLOCKS)
      return { ready: false, reason: `no block sealed for ${lagBlocks} block times`, head, lagBlocks }
    return { ready: true, head, lagBlocks }
  }
}

/**
 * The upstream's block interval as the follower's two newest blocks show it (timestamps are whole
 * seconds, so never under 1 s); 1 s while it holds one block.
 */
function blockIntervalMs(follower: FollowerBackend): number {
  const head = follower.cache.latest()
  const parent = head && follower.cache.byNumber(head.number - 1n)
  if (!head || !parent) return 1000
  return Math.max(1000, Number(head.header.timestamp - parent.header.timestamp) * 1000)
}

/** A follower is ready while its upstream answers, its head is recent and (with --upstream-feed) its feed flows. */
export function followerReadiness(follower: FollowerBackend): () => Readiness {
  return () => {
    const health = follower.head.health()
    const head = health.head === undefined ? undefined : Number(health.head)
    if (!health.reachable)
      return { ready: false, reason: `upstream unreachable: ${health.lastError ?? 'no answer yet'}`, head }
    if (head === undefined || health.lagMs === undefined) return { ready: false, reason: 'no upstream head yet' }
    const lagBlocks = Math.max(0, Math.floor(health.lagMs / blockIntervalMs(follower)))
    if (lagBlocks > READY_MAX_HEAD_LAG_BLOCKS)
      return { ready: false, reason: `head lags the upstream by ${lagBlocks} blocks`, head, lagBlocks }
    const feed = follower.feed
    if (feed && !feed.connected) return { ready: false, reason: 'flashblocks feed disconnected', head, lagBlocks }
    if (feed?.isIdle) return { ready: false, reason: 'flashblocks feed silent', head, lagBlocks }
    return { ready: true, head, lagBlocks }
  }
}

export function registerHealth(app: FastifyInstance, readiness: () => Readiness): void {
  app.get('/health', async (_request, reply) => sendJson(reply, 200, { alive: true }))
  app.get('/ready', async (_request, reply) => {
    const state = readiness()
    return sendJson(reply, state.ready ? 200 : 503, state)
  })
}
