/**
 * A follower whose upstream freezes is drained: follower 2 follows a relay (itself a follower of the leader)
 * that the test freezes with SIGSTOP, so only follower 2's upstream and feed stop. Its GET /ready turns 503,
 * nginx stops sending it traffic (X-Upstream-Addr names follower 1 only) and no client request fails; after
 * SIGCONT it is ready and gets traffic again.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type Cluster, startCluster } from '../../scripts/cluster/cluster.js'
import { callVia } from '../support/cluster.js'
import { SKIP_CLUSTER } from '../support/system-tools.js'
import { type LeaderProcess, startLeaderProcess } from '../support/leader-process.js'
import { freeze, until } from '../support/wait-for.js'

describe.skipIf(SKIP_CLUSTER)('a follower with a frozen upstream behind nginx', { timeout: 180_000 }, () => {
  let leader: LeaderProcess
  let relay: LeaderProcess
  let cluster: Cluster
  const feedOf = (node: LeaderProcess) => `${node.wsUrl}ws/flashblocks`

  beforeAll(async () => {
    leader = await startLeaderProcess()
    relay = await startLeaderProcess(['--upstream', leader.url, '--upstream-feed', feedOf(leader)])
    cluster = await startCluster({
      followers: 2,
      upstream: leader.url,
      upstreamOf: (i) =>
        i === 0
          ? { upstream: leader.url, upstreamFeed: feedOf(leader) }
          : { upstream: relay.url, upstreamFeed: feedOf(relay) },
    })
  }, 300_000)
  afterAll(async () => {
    await cluster?.stop()
    await relay?.close()
    await leader?.close()
  })

  test('its /ready turns 503 with a reason, nginx stops sending it traffic, and it comes back after SIGCONT', async () => {
    const [one, two] = cluster.followers.map((f) => f.origin.replace('http://', ''))
    const members = new Set<string>()
    for (let i = 0; i < 6; i++) members.add((await callVia(cluster.origin, 'eth_blockNumber')).member)
    expect(members).toEqual(new Set([one, two]))

    await freeze(relay.pid)
    const ready = async () => fetch(`${cluster.followers[1]!.origin}/ready`)
    await until(async () => (await ready()).status === 503, 'follower 2 to be unready', 60_000)
    expect(((await (await ready()).json()) as { reason: string }).reason).toMatch(/upstream|head lags|feed/)
    await until(() => !cluster.followers[1]!.ready, 'the supervisor to see it', 10_000)
    // the reload takes effect when nginx's new workers serve; from then on only follower 1 answers. One call
    // answered by follower 1 proves nothing (round robin sends every other call there): wait for a run of them.
    // The reload itself closes kept-alive client connections, so a call sent on one then fails: not yet.
    const runAnsweredByOne = async () => {
      for (let i = 0; i < 8; i++) {
        const reply = await callVia(cluster.origin, 'eth_chainId').catch(() => undefined)
        if (reply?.tried.join() !== one) return false
      }
      return true
    }
    await until(runAnsweredByOne, 'nginx to drain it')
    for (let i = 0; i < 20; i++) {
      const reply = await callVia(cluster.origin, 'eth_blockNumber')
      expect(reply.status).toBe(200)
      expect(reply.tried).toEqual([one])
    }

    relay.resume()
    await until(async () => (await ready()).status === 200, 'follower 2 to be ready again', 90_000)
    await until(
      async () => (await callVia(cluster.origin, 'eth_chainId').catch(() => undefined))?.member === two,
      'nginx to use it again',
      30_000,
    )
  })
})
