/**
 * What each request makes the server allocate, keep past a scavenge and promote to the old generation, read from
 * V8's own trace of the server's young-generation collections (--trace-gc-nvp) under the kit's load (autocannon,
 * 16 connections, the distinct cases with a new address in every request), beside the scavenges' pause per
 * request and the CPU per request. Bytes do not depend on how busy the machine is, where CPU figures move ±30 %
 * between rounds on a shared machine: the figure to compare commits by while other work runs. What survives is
 * what costs (a scavenge copies the live objects, and what it promotes the old generation's collections walk).
 *
 *   npx tsx bench/request-alloc.ts [--seconds 4] [--cases callDistinct,balanceDistinct,balanceLatest,chainId]
 *                                  [--baseline DIR] [--floor]
 *
 * `--floor`: the bare node:http server of floors.ts (JSON.parse the body, JSON.stringify a constant) as a target
 * too, sent ours' bodies: the bytes any server on Node allocates per request before doing anything.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { floorScript } from './floors.js'
import { cases, cpuMs, fixtures, varied } from './read-cases.js'
import { freePort, rpc, sleep } from './lib.js'

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '4' },
    cases: { type: 'string', default: 'callDistinct,balanceDistinct,balanceLatest,chainId' },
    baseline: { type: 'string' },
    floor: { type: 'boolean', default: false },
  },
})

const repo = new URL('..', import.meta.url).pathname

interface Server {
  label: string
  url: string
  child: ChildProcess
  /** The trace's young-generation collections so far, each as its name=value fields. */
  scavenges: Record<string, string>[]
}

/** Our service in checkout `cwd`, or (no `cwd`) the bare node:http floor, tracing its scavenges. */
async function start(label: string, cwd?: string): Promise<Server> {
  const port = await freePort()
  const program = cwd
    ? ['--import', 'tsx', 'src/cli.ts', '--port', String(port), '--quiet', '--rate-limit', '0']
    : ['-e', floorScript('node:http')]
  const child = spawn(process.execPath, ['--trace-gc-nvp', ...program], {
    cwd: cwd ?? repo,
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const url = `http://127.0.0.1:${port}${cwd ? '/flashblocks' : '/'}`
  const server: Server = { label, url, child, scavenges: [] }
  let rest = ''
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (rest + chunk).split('\n')
    rest = lines.pop()!
    for (const line of lines)
      if (line.includes(' gc=s '))
        server.scavenges.push(Object.fromEntries(line.split(' ').map((field) => field.split('=') as [string, string])))
  })
  for (let i = 0; ; i++) {
    if (child.exitCode !== null || i > 600) throw new Error(`${label} did not start`)
    if (await rpc(server.url, 'eth_chainId').catch(() => undefined)) return server
    await sleep(100)
  }
}

let sent = 0

/** One case for `seconds` at 16 connections: requests answered and the server's CPU ms meanwhile. */
async function load(server: Server, name: string, body: unknown, seconds: number) {
  const vary = varied(name, body)
  const cpu0 = cpuMs(server.child.pid!)
  const result = await autocannon({
    url: server.url,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    connections: 16,
    duration: seconds,
    ...(vary
      ? { requests: [{ setupRequest: (request: { body?: string }) => ({ ...request, body: vary(sent++) }) }] }
      : {}),
  })
  if (result.non2xx || result.errors)
    throw new Error(`${server.label} ${name}: ${result.non2xx} non-2xx, ${result.errors} errors`)
  return { requests: result.requests.total, cpuMs: cpuMs(server.child.pid!) - cpu0 }
}

const servers = [await start('ours', repo)]
if (args.baseline) servers.unshift(await start('before', args.baseline))
if (args.floor) servers.push(await start('node:http'))
try {
  const bodies = new Map<Server, Record<string, unknown>>()
  for (const server of servers) {
    // the floor deploys nothing: it is sent ours' bodies and answers them with a constant
    if (server.label === 'node:http') bodies.set(server, bodies.get(servers[0]!)!)
    else {
      const fx = await fixtures(server.url)
      bodies.set(server, cases(fx.token, fx.txHash))
    }
  }
  console.log(
    '| case | server | req/s | CPU µs/req | allocated B/req | survived B/req | promoted B/req | scavenge pause µs/req |',
  )
  console.log('|---|---|---|---|---|---|---|---|')
  for (const name of args.cases.split(','))
    for (const server of servers) {
      const body = bodies.get(server)![name]
      await load(server, name, body, 2) // the JIT's warm-up, and the caches' for the case
      const from = server.scavenges.length
      const { requests, cpuMs: cpu } = await load(server, name, body, Number(args.seconds))
      await sleep(100) // the trace's last lines
      const window = server.scavenges.slice(from)
      const per = (field: string) => window.reduce((sum, gc) => sum + Number(gc[field] ?? 0), 0) / requests
      const row = [
        Math.round(requests / Number(args.seconds)),
        Math.round((cpu * 1000) / requests),
        Math.round(per('allocated')),
        Math.round(per('new_space_survived')),
        Math.round(per('promoted')),
        (per('pause') * 1000).toFixed(2),
      ]
      console.log(`| ${name} | ${server.label} | ${row.join(' | ')} |`)
    }
} finally {
  for (const { child } of servers) child.kill('SIGTERM')
}
