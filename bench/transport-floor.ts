/**
 * How far the HTTP transport is from its floors, all in one run: eth_chainId (a constant answer) served by a
 * bare node:http server and by a minimal fastify app (both JSON.parse the body and JSON.stringify the reply),
 * by our service (and a baseline checkout), and by anvil: server CPU per request. Rounds alternate the
 * servers, so a neighbour's burst on a shared machine hits all of them; each server's best round is reported
 * (the least disturbed). No req/s here: autocannon ends a fixed amount on a whole second, so bench:reads
 * gives throughput. Our chain builds its flashblocks and blocks meanwhile (~2-3 % of a core when idle, which
 * a slow round on a busy machine charges to its requests); `--no-mining` leaves only the transport to measure.
 *
 *   npx tsx bench/transport-floor.ts [--n 30000] [--connections 16] [--rounds 3] [--baseline DIR] [--no-mining]
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { freePort, rpc, sleep, startAnvil, startOurs, type Target } from './lib.js'

const { values: args } = parseArgs({
  options: {
    n: { type: 'string', default: '30000' },
    connections: { type: 'string', default: '16' },
    rounds: { type: 'string', default: '3' },
    baseline: { type: 'string' },
    'no-mining': { type: 'boolean', default: false },
  },
})

const FLOORS = {
  'node:http': `
    const http = require('node:http')
    http.createServer((req, res) => {
      let body = ''
      req.setEncoding('utf8')
      req.on('data', (c) => (body += c))
      req.on('end', () => {
        const m = JSON.parse(body)
        const text = JSON.stringify({ jsonrpc: '2.0', id: m.id, result: '0xc4' })
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
        res.end(text)
      })
    }).listen(Number(process.env.PORT), '127.0.0.1')`,
  fastify: `
    const app = require('fastify')({ logger: false })
    app.post('/', async (request) => ({ jsonrpc: '2.0', id: request.body.id, result: '0xc4' }))
    app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' })`,
}

async function startFloor(label: string, source: string): Promise<Target> {
  const port = await freePort()
  const child: ChildProcess = spawn(process.execPath, ['-e', source], {
    cwd: new URL('..', import.meta.url).pathname,
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const url = `http://127.0.0.1:${port}/`
  for (let i = 0; ; i++) {
    try {
      await rpc(url, 'eth_chainId')
      break
    } catch (err) {
      if (i > 100) throw err
      await sleep(100)
    }
  }
  const stop = () =>
    new Promise<void>((resolve) => {
      child.once('exit', () => resolve())
      child.kill('SIGTERM')
    })
  return { label, url, pid: child.pid, stop }
}

const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] })

/** User and system CPU of a process in ms (/proc ticks of 10 ms). */
function cpuSplit(pid: number): [number, number] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return [Number(f[11]) * 10, Number(f[12]) * 10]
}

async function round(target: Target, amount: number): Promise<[number, number]> {
  const [user0, sys0] = cpuSplit(target.pid!)
  await autocannon({
    url: target.url,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    connections: Number(args.connections),
    amount,
  })
  const [user1, sys1] = cpuSplit(target.pid!)
  return [((user1 - user0) * 1000) / amount, ((sys1 - sys0) * 1000) / amount]
}

const oursArgs = args['no-mining'] ? ['--no-mining'] : []
const suffix = args['no-mining'] ? ' --no-mining' : ''
const targets: Target[] = [
  await startFloor('node:http', FLOORS['node:http']),
  await startFloor('fastify', FLOORS.fastify),
  { ...(await startOurs(oursArgs)), label: `ours${suffix}` },
  ...(args.baseline ? [{ ...(await startOurs(oursArgs, [], args.baseline)), label: `baseline${suffix}` }] : []),
  await startAnvil('1'),
]
try {
  const rounds = new Map<string, [number, number][]>()
  for (const target of targets) await round(target, 5000)
  for (let r = 0; r < Number(args.rounds); r++)
    for (const target of targets)
      rounds.set(target.label, [...(rounds.get(target.label) ?? []), await round(target, Number(args.n))])
  console.log(`eth_chainId, ${args.connections} connections, ${args.n} requests a round`)
  console.log(`| server | CPU µs/req, best of ${args.rounds} (user + system) | every round (total) |`)
  console.log('|---|---|---|')
  for (const [label, all] of rounds) {
    const [user, sys] = all.reduce((a, b) => (b[0] + b[1] < a[0] + a[1] ? b : a))
    const totals = all.map(([u, s]) => Math.round(u + s)).join(', ')
    console.log(`| ${label} | ${Math.round(user + sys)} (${Math.round(user)} + ${Math.round(sys)}) | ${totals} |`)
  }
} finally {
  for (const target of targets) await target.stop()
}
