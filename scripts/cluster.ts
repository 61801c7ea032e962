/**
 * `npm run cluster -- --followers N --port P [--upstream URL --upstream-feed URL]`: the scale-out topology on
 * this machine (scripts/cluster/cluster.ts), its entry URLs, then `ready`; SIGTERM or SIGINT stops everything
 * it started. deploy/README.md describes the same topology over several machines.
 */
import { parseArgs } from 'node:util'
import { startCluster } from './cluster/cluster.js'
import { HAVE_NGINX, NGINX } from './cluster/nginx.js'
import { wsUrlOf } from '../src/client/ws-url.js'

const USAGE = 'usage: npm run cluster -- --followers N --port P [--upstream URL --upstream-feed URL]'

function fail(message: string): never {
  process.stderr.write(`cluster: ${message}\n${USAGE}\n`)
  process.exit(2)
}

const { values } = parseArgs({
  options: {
    followers: { type: 'string', default: '2' },
    port: { type: 'string' },
    upstream: { type: 'string' },
    'upstream-feed': { type: 'string' },
  },
  strict: true,
})
const followers = Number(values.followers)
const port = Number(values.port)
if (!Number.isInteger(followers) || followers < 1)
  fail(`--followers must be a whole number >= 1, got ${values.followers}`)
if (!Number.isInteger(port) || port < 1 || port > 65535) fail('--port P is required (1-65535)')
if (values['upstream-feed'] && !values.upstream) fail('--upstream-feed needs --upstream')
if (!HAVE_NGINX) fail(`nginx not found at ${NGINX} (apt-get install nginx, or set NGINX=/path/to/nginx)`)

const say = (line: string) => process.stdout.write(`${line}\n`)
const cluster = await startCluster({
  followers,
  port,
  upstream: values.upstream,
  upstreamFeed: values['upstream-feed'],
  log: say,
})
say(`redis     ${cluster.redisUrl}`)
if (cluster.leader) say(`leader    ${cluster.leader.origin}/ pid ${cluster.leader.pid}`)
for (const f of cluster.followers) say(`${f.name.padEnd(9)} ${f.origin}/ pid ${f.pid}`)
say(`nginx     ${cluster.origin}/ pid ${cluster.nginxPid}`)
const ws = wsUrlOf(cluster.origin)
say(`entry     ${cluster.origin}/  ${cluster.origin}/flashblocks  ${ws}/  ${ws}/flashblocks  ${ws}/ws/flashblocks`)
say(`logs      ${cluster.dir}`)
say('ready')

let stopping = false
const stop = (signal: string) => {
  if (stopping) return
  stopping = true
  say(`${signal}: stopping`)
  cluster.stop().then(() => process.exit(0))
}
process.on('SIGINT', () => stop('SIGINT'))
process.on('SIGTERM', () => stop('SIGTERM'))
