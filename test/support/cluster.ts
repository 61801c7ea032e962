/**
 * For the cluster tests: one POST through the entry that also says which member answered (nginx's
 * X-Upstream-Addr). Whether nginx and redis-server are here is system-tools.ts's SKIP_CLUSTER.
 */
import { post, request } from './rpc.js'

/** A JSON-RPC call through `url`; `member` is the address that answered (the last one nginx tried). */
export async function callVia(url: string, method: string, params: unknown[] = []) {
  const reply = await post(url, request(method, params))
  const tried = (reply.headers['x-upstream-addr'] ?? '').split(', ')
  return { status: reply.status, json: reply.json, member: tried[tried.length - 1]!, tried }
}
