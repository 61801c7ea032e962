/**
 * transport-floor.ts --after-gets N: what GET /health and CORS preflights (what load balancers and browsers send)
 * leave behind for the POSTs after them. Each server is started twice under callgrind (callgrind.ts), warmed with
 * the same POSTs; one is then sent N GET /health and N preflights, the other nothing; then both answer the same
 * windows of POSTs, and each window's instructions per POST are set beside the other's: a server that has only
 * ever seen POSTs is the reference, in instructions, which the machine's load does not move.
 */
import { Agent, request } from 'node:http'
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { Callgrind, type Count, callgrindPrefix } from './callgrind.js'
import type { Target } from './lib.js'

/** A health check as a load balancer sends it, and a browser's preflight of a JSON POST from another origin. */
const HEALTH = { method: 'GET', path: '/health', headers: { 'user-agent': 'ELB-HealthChecker/2.0', accept: '*/*' } }
const PREFLIGHT = {
  method: 'OPTIONS',
  path: '/',
  headers: {
    origin: 'https://app.example',
    'access-control-request-method': 'POST',
    'access-control-request-headers': 'content-type',
  },
}

/** A server process to measure: `start(wrap)` starts it under `wrap`; its first target takes the GETs, every target's POSTs are counted. */
export interface Server {
  label: string
  start: (wrap: string[]) => Promise<Target[]>
}

export interface AfterGetsOptions {
  caseName: string
  body: string
  /** GET /health and preflights sent, N of each, alternating. */
  gets: number
  /** Sent right after start, before the warm-up (a load balancer checks a process from its first second), instead of after the fresh window. */
  getsFirst: boolean
  /** POSTs before the first window (uninstrumented: the JIT's warm-up). */
  warm: number
  /** POSTs per window, and windows after the GETs. */
  window: number
  windows: number
  /** Keep callgrind's files here (for callgrind_annotate), else in a temporary directory removed after. */
  keep?: string
}

/** One request on a kept-alive connection; its body read and dropped. */
function send(agent: Agent, url: URL, method: string, path: string, headers: Record<string, string>, body?: string) {
  return new Promise<void>((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method, path, headers, agent }, (res) => {
      res.resume()
      res.on('end', () =>
        (res.statusCode ?? 500) < 300
          ? resolve()
          : reject(new Error(`${method} ${url.origin}${path}: ${res.statusCode}`)),
      )
    })
    req.on('error', reject)
    req.end(body)
  })
}

type Sent = 'POSTs only' | '+ GETs, preflights'

/** Starts one server under callgrind and counts its windows; instructions per POST by target label, window by window. */
async function measure(server: Server, sent: Sent, options: AfterGetsOptions): Promise<Map<string, Count[]>> {
  const dir = options.keep ?? mkdtempSync(join(tmpdir(), 'callgrind-'))
  const targets = await server.start(callgrindPrefix(dir))
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  try {
    const counter = new Callgrind(targets[0]!.pid!, dir)
    const headers = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(options.body)) }
    const posts = async (target: Target, n: number) => {
      const url = new URL(target.url)
      for (let i = 0; i < n; i++) await send(agent, url, 'POST', url.pathname, headers, options.body)
    }
    const counts = new Map<string, Count[]>(targets.map((t) => [t.label, []]))
    const windows = async (name: string) => {
      for (const target of targets) {
        const count = await counter.window(`${target.label} ${sent} ${name}`, () => posts(target, options.window))
        counts.get(target.label)!.push({ main: count.main / options.window, all: count.all / options.window })
      }
    }
    const gets = async () => {
      if (sent === 'POSTs only') return
      const url = new URL(targets[0]!.url)
      for (let i = 0; i < options.gets; i++) {
        await send(agent, url, HEALTH.method, HEALTH.path, HEALTH.headers)
        await send(agent, url, PREFLIGHT.method, PREFLIGHT.path, PREFLIGHT.headers)
      }
    }
    if (options.getsFirst) await gets()
    for (const target of targets) await posts(target, options.warm)
    await windows('fresh')
    if (!options.getsFirst) await gets()
    for (let w = 1; w <= options.windows; w++) await windows(`after ${w}`)
    return counts
  } finally {
    agent.destroy()
    await targets[0]!.stop()
    if (options.keep === undefined) rmSync(dir, { recursive: true, force: true })
  }
}

const k = (x: number) => `${(x / 1000).toFixed(1)} k`
const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')

/** Every server measured twice, one after the other; a table of instructions per POST, window by window. */
export async function afterGets(servers: Server[], options: AfterGetsOptions): Promise<void> {
  const loadAtStart = load()
  const rows: [string, Sent, Count[]][] = []
  for (const server of servers)
    for (const sent of ['POSTs only', '+ GETs, preflights'] as const) {
      const counts = await measure(server, sent, options)
      for (const [label, windows] of counts) rows.push([label, sent, windows])
    }
  console.log(
    `${options.caseName}: instructions per POST (callgrind; main thread, every thread's in brackets), ${options.warm} ` +
      `uninstrumented warm-up POSTs, windows of ${options.window} POSTs in a row; ${options.gets} GET /health and ` +
      `${options.gets} preflights ${options.getsFirst ? 'before the warm-up' : 'after the fresh window'}; load ${loadAtStart} at the start, ${load()} at the end ` +
      '(which moves wall time, not these counts)',
  )
  const columns = ['fresh', ...Array.from({ length: options.windows }, (_, w) => `after ${w + 1}`)]
  console.log(`| server | sent | ${columns.join(' | ')} |`)
  console.log(`|---|---|${columns.map(() => '---|').join('')}`)
  for (const [label, sent, windows] of rows) {
    const reference = rows.find(([l, s]) => l === label && s === 'POSTs only')![2]
    const cells = windows.map((count, w) => {
      const more = (count.main / reference[w]!.main - 1) * 100
      const vs = sent === 'POSTs only' ? '' : `, **${more >= 0 ? '+' : ''}${more.toFixed(1)} %**`
      return `${k(count.main)} (${k(count.all)})${vs}`
    })
    console.log(`| ${label} | ${sent} | ${cells.join(' | ')} |`)
  }
}
