/**
 * GET /ready for a follower: ready while its upstream answers, its head is recent (at most
 * READY_MAX_HEAD_LAG_BLOCKS of the upstream's block interval behind the wall clock) and, with
 * --upstream-feed, its feed is connected and flowing.
 */
import type { Readiness } from '../capabilities/backend-status.js'
import { READY_MAX_HEAD_LAG_BLOCKS } from '../limits.js'
import type { BlockCache } from './block-cache.js'
import type { FeedClient } from './feed-client.js'
import type { HeadFollower } from './head-follower.js'

/**
 * The upstream's block interval as the follower's two newest blocks show it (timestamps are whole
 * seconds, so never under 1 s); 1 s while it holds one block.
 */
function blockIntervalMs(cache: BlockCache): number {
  const head = cache.latest()
  const parent = head && cache.byNumber(head.number - 1n)
  if (!head || !parent) return 1000
  return Math.max(1000, Number(head.header.timestamp - parent.header.timestamp) * 1000)
}

export function followerReadiness(head: HeadFollower, cache: BlockCache, feed: FeedClient | undefined): Readiness {
  const health = head.health()
  const height = health.head === undefined ? undefined : Number(health.head)
  if (!health.reachable)
    return { ready: false, reason: `upstream unreachable: ${health.lastError ?? 'no answer yet'}`, head: height }
  if (height === undefined || health.lagMs === undefined) return { ready: false, reason: 'no upstream head yet' }
  const lagBlocks = Math.max(0, Math.floor(health.lagMs / blockIntervalMs(cache)))
  if (lagBlocks > READY_MAX_HEAD_LAG_BLOCKS)
    return { ready: false, reason: `head lags the upstream by ${lagBlocks} blocks`, head: height, lagBlocks }
  if (feed && !feed.connected) return { ready: false, reason: 'flashblocks feed disconnected', head: height, lagBlocks }
  if (feed?.isIdle) return { ready: false, reason: 'flashblocks feed silent', head: height, lagBlocks }
  return { ready: true, head: height, lagBlocks }
}
