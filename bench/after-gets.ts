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
  /** Processes started per server and arm: a POST's count moves ~8 % between processes of one server (their JITs differ), far less between windows of one. */
  processes: number
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

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}
const pct = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)} %`

/**
 * Every server measured `processes` times in each arm, the arms alternating; a table of instructions per POST,
 * window by window and process by process, then each arm's median and range over its processes of a process's
 * median window (a window with a scavenge or a recompile in it does not move that).
 */
export async function afterGets(servers: Server[], options: AfterGetsOptions): Promise<void> {
  const loadAtStart = load()
  const rows: { label: string; sent: Sent; windows: Count[] }[] = []
  for (const server of servers)
    for (let p = 0; p < options.processes; p++)
      for (const sent of ['POSTs only', '+ GETs, preflights'] as const) {
        const counts = await measure(server, sent, options)
        for (const [label, windows] of counts) rows.push({ label, sent, windows })
      }
  console.log(
    `${options.caseName}: instructions per POST (callgrind; main thread, every thread's in brackets), ${options.warm} ` +
      `uninstrumented warm-up POSTs, windows of ${options.window} POSTs in a row; ${options.gets} GET /health and ` +
      `${options.gets} preflights ${options.getsFirst ? 'before the warm-up' : 'after the fresh window'}; ${options.processes} ` +
      `process(es) per server and arm; load ${loadAtStart} at the start, ${load()} at the end (which moves wall time, not these counts)`,
  )
  const columns = ['fresh', ...Array.from({ length: options.windows }, (_, w) => `after ${w + 1}`)]
  const labels = [...new Set(rows.map((r) => r.label))]
  const arm = (label: string, sent: Sent) => rows.filter((r) => r.label === label && r.sent === sent)
  // each window against the median of the POSTs-only processes' same window
  const reference = new Map(
    labels.map((label) => [
      label,
      columns.map((_, w) => median(arm(label, 'POSTs only').map((r) => r.windows[w]!.main))),
    ]),
  )
  console.log(`| server | sent | ${columns.join(' | ')} |`)
  console.log(`|---|---|${columns.map(() => '---|').join('')}`)
  for (const { label, sent, windows } of rows) {
    const cells = windows.map(
      (count, w) => `${k(count.main)} (${k(count.all)}), ${pct(count.main / reference.get(label)![w]! - 1)}`,
    )
    console.log(`| ${label} | ${sent} | ${cells.join(' | ')} |`)
  }
  console.log(
    "\nA process's median window, instructions per POST (main thread): median of the processes (range), each process",
  )
  console.log('| server | POSTs only | + GETs, preflights | median against median |')
  console.log('|---|---|---|---|')
  for (const label of labels) {
    const perProcess = (sent: Sent) => arm(label, sent).map((r) => median(r.windows.map((c) => c.main)))
    const only = perProcess('POSTs only')
    const gets = perProcess('+ GETs, preflights')
    const cell = (xs: number[]) =>
      `**${k(median(xs))}** (${k(Math.min(...xs))}-${k(Math.max(...xs))}): ${xs.map((x) => k(x)).join(', ')}`
    console.log(`| ${label} | ${cell(only)} | ${cell(gets)} | **${pct(median(gets) / median(only) - 1)}** |`)
  }
}
