/**
 * For the cluster tests: whether nginx (Debian package) and redis-server are here, and one POST through the
 * entry that also says which member answered (nginx's X-Upstream-Addr). Without them the tests are skipped
 * with a message, except in CI (CI=true), where .ci/run installed them and their absence is a failure.
 */
import { HAVE_NGINX, NGINX } from '../../scripts/cluster/nginx.js'
import { HAVE_REDIS_SERVER } from './redis-server.js'
import { post, request } from './rpc.js'

export const SKIP_CLUSTER = !(HAVE_NGINX && HAVE_REDIS_SERVER) && process.env.CI !== 'true'

if (SKIP_CLUSTER)
  console.warn(
    `nginx (${NGINX}) or redis-server is not installed: skipping the cluster tests. Install them with \`apt-get install nginx redis-server\`.`,
  )

/** A JSON-RPC call through `url`; `member` is the address that answered (the last one nginx tried). */
export async function callVia(url: string, method: string, params: unknown[] = []) {
  const reply = await post(url, request(method, params))
  const tried = (reply.headers['x-upstream-addr'] ?? '').split(', ')
  return { status: reply.status, json: reply.json, member: tried[tried.length - 1]!, tried }
}
