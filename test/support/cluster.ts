/**
 * For the cluster tests: one POST through the entry that also says which member answered (nginx's
 * X-Upstream-Addr), and a wait until every member has caught up with what one of them answered. Whether nginx
 * and redis-server are here is system-tools.ts's SKIP_CLUSTER.
 */
import type { Cluster } from '../../scripts/cluster/cluster.js'
import { post, request } from './rpc.js'
import { until } from './wait-for.js'

/** A JSON-RPC call through `url`; `member` is the address that answered (the last one nginx tried). */
export async function callVia(url: string, method: string, params: unknown[] = []) {
  const reply = await post(url, request(method, params))
  const tried = (reply.headers['x-upstream-addr'] ?? '').split(', ')
  return { status: reply.status, json: reply.json, member: tried[tried.length - 1]!, tried }
}

/**
 * Until every follower, asked directly at `path` ('' or '/flashblocks'), answers `method` with a result `holds`:
 * the members apply the leader's feed each at its own pace, so a client that saw something from one member (a
 * receipt) may be sent next to one that has not yet (the balancer makes no read-your-writes promise). A member
 * is not asked again once it has caught up: these calls count in the same rate limit as the test's own.
 */
export async function untilEveryMember(
  cluster: Cluster,
  path: '' | '/flashblocks',
  method: string,
  params: unknown[],
  holds: (result: unknown) => boolean,
  what: string,
): Promise<void> {
  const behind = new Set(cluster.followers)
  await until(async () => {
    for (const member of behind) {
      const reply = await post(`${member.origin}${path}`, request(method, params))
      if (reply.status === 200 && reply.json?.result !== undefined && holds(reply.json.result)) behind.delete(member)
    }
    return behind.size === 0
  }, `every member to show ${what}`)
}

/** Until every follower has the receipt of `hash`: preconfirmed (on '/flashblocks') or sealed (on ''). */
export function untilEveryMemberHasReceipt(cluster: Cluster, hash: string, path: '' | '/flashblocks'): Promise<void> {
  const isIt = (receipt: unknown) => (receipt as { transactionHash?: string } | null)?.transactionHash === hash
  const what = `the receipt of ${hash}${path ? ' preconfirmed' : ' sealed'}`
  return untilEveryMember(cluster, path, 'eth_getTransactionReceipt', [hash], isIt, what)
}
