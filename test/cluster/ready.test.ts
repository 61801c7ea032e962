/**
 * GET /health and GET /ready as a load balancer sees them: an embedded chain is ready while it seals blocks;
 * a follower while its upstream answers, its head is recent and its feed flows (the leader frozen with
 * SIGSTOP makes it 503 with a reason, SIGCONT makes it ready again).
 */
import { afterAll, describe, expect, test } from 'vitest'
import type { Readiness } from '../../src/capabilities/backend-status.js'
import { startService } from '../../src/service.js'
import { READY_MAX_HEAD_LAG_BLOCKS } from '../../src/limits.js'
import { startLeaderProcess } from '../support/leader-process.js'
import { freeze, until } from '../support/wait-for.js'

const closers: (() => Promise<unknown>)[] = []
afterAll(async () => {
  for (const close of closers.reverse()) await close()
})

async function get(url: string) {
  const response = await fetch(url)
  return { status: response.status, body: (await response.json()) as Readiness }
}

describe('an embedded chain', () => {
  test('is alive and ready while it seals blocks, and 503 with a reason once it stops', async () => {
    const service = await startService({
      port: 0,
      quiet: true,
      rateLimit: 0,
      blockTimeMs: 50,
      flashblockIntervalMs: 10,
    })
    closers.push(() => service.close())
    const origin = new URL(service.url).origin
    expect(await (await fetch(`${origin}/health`)).json()).toEqual({ alive: true })
    // ready means a block sealed within the last few block times: a CPU-starved moment (a busy machine) may
    // rightly say 503 at any one look, so the test waits for a 200 instead of taking its first answer
    await until(async () => (await get(`${origin}/ready`)).status === 200, '/ready to answer 200', 30_000)

    await service.chain.stop()
    await until(async () => (await get(`${origin}/ready`)).status === 503, '/ready to turn 503', 30_000)
    const stalled = await get(`${origin}/ready`)
    expect(stalled.body).toMatchObject({
      ready: false,
      reason: expect.stringMatching(/no block sealed for \d+ block times/),
    })
    expect(stalled.body.lagBlocks).toBeGreaterThan(READY_MAX_HEAD_LAG_BLOCKS)
    expect((await get(`${origin}/health`)).status).toBe(200)
  })
})

describe('a follower', () => {
  test('is ready while it follows, 503 while its leader is frozen, and ready again after it thaws', async () => {
    const leader = await startLeaderProcess(['--block-time', '1', '--flashblock-interval', '200'])
    closers.push(() => leader.close())
    const follower = await startService({
      port: 0,
      quiet: true,
      rateLimit: 0,
      upstream: leader.url,
      upstreamFeed: `${leader.wsUrl}ws/flashblocks`,
    })
    closers.push(() => follower.close())
    const origin = new URL(follower.url).origin
    await until(async () => (await get(`${origin}/ready`)).status === 200, 'the follower to be ready', 30_000)
    expect((await get(`${origin}/ready`)).body).toMatchObject({ ready: true, lagBlocks: expect.any(Number) })

    await freeze(leader.pid)
    await until(async () => (await get(`${origin}/ready`)).status === 503, '/ready to turn 503', 30_000)
    const frozen = await get(`${origin}/ready`)
    expect(frozen.body).toMatchObject({ ready: false, reason: expect.stringMatching(/upstream|head lags|feed/) })
    expect((await get(`${origin}/health`)).status).toBe(200)

    leader.resume()
    await until(async () => (await get(`${origin}/ready`)).status === 200, 'the follower to be ready again', 60_000)
  }, 120_000)
})
