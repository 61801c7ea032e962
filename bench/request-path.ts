/**
 * Our request path without node:http: the service's own `request` listener (post-listener.ts onward: body,
 * parse, dispatch, handler, state, reply text, writeHead/end) driven in process with a stand-in request and
 * response, one request at a time, the main thread's CPU per request (from /proc/thread-self/schedstat:
 * what a neighbour's load does not charge to us, less V8's helper threads). What a read costs beyond node:http's floor (bench/transport-floor.ts has that floor), and
 * how it grows as distinct reads fill the state caches: run more requests a round (`--n`) to see it.
 *
 *   npx tsx bench/request-path.ts [--cases chainId,balanceLatest,...] [--n 20000] [--rounds 3] [--root DIR]
 *                                 [--alloc]
 *
 * `--root DIR`: the service of another checkout (e.g. a baseline's); run both in turn, the machine's load
 * is printed beside the figures. Each case's least CPU over the rounds is reported, every round beside it.
 * `--alloc`: what the last round of each case allocated per request, by function (V8's sampling heap profiler,
 * collected objects included): bytes do not move with the machine's load, and node:http's share is not in them.
 */
import { EventEmitter } from 'node:events'
import { readFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import type { RequestListener } from 'node:http'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { cases, fixtures, varied } from './read-cases.js'

const { values: args } = parseArgs({
  options: {
    cases: { type: 'string', default: 'chainId,balanceLatest,balancePending,balanceDistinct,callDistinct' },
    n: { type: 'string', default: '20000' },
    rounds: { type: 'string', default: '3' },
    root: { type: 'string', default: new URL('..', import.meta.url).pathname },
    alloc: { type: 'boolean', default: false },
  },
})

const { startService } = (await import(join(args.root!, 'src/service.ts'))) as typeof import('../src/service.js')
const service = await startService({ port: 0, quiet: true, rateLimit: 0 })
const fx = await fixtures(service.flashblocksUrl)
const all = cases(fx.token, fx.txHash)
const listener = service.app.server.listeners('request')[0] as RequestListener
const peer = { remoteAddress: '127.0.0.1' }

/**
 * One POST on /flashblocks through the listener; resolves when the reply has been ended, with whether that
 * was within the listener's own turn (a service that writes its replies at the turn's end, reply-batch.ts,
 * ends it a turn later).
 */
function post(text: string): Promise<boolean> {
  return new Promise((resolve) => {
    const body = Buffer.from(text)
    const headers = { 'content-type': 'application/json', 'content-length': String(body.length) }
    const req = Object.assign(new EventEmitter(), { method: 'POST', url: '/flashblocks', headers, socket: peer })
    let inTurn = true
    const res = { writeHead: () => res, end: () => resolve(inTurn) }
    listener(req as never, res as never)
    req.emit('data', body)
    req.emit('end')
    inTurn = false
  })
}

/**
 * A turn of the event loop, as between two requests over HTTP (each its own socket event). Without one, requests
 * answered without I/O run back to back in microtasks and nothing scheduled runs meanwhile: not the state
 * snapshot's making (a part per turn), so every read walked the trie, nor the chain's blocks.
 */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve))

/** ns this thread has run (Linux). */
const threadNs = () => Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0])

interface AllocNode {
  callFrame: { functionName: string; url: string }
  selfSize: number
  children: AllocNode[]
}

/** Bytes allocated per request by function ("name file"), the largest first. */
function bytesByFunction(head: AllocNode, requests: number): string {
  const by = new Map<string, number>()
  const walk = ({ callFrame: f, selfSize, children }: AllocNode) => {
    const name = `${f.functionName || '(anonymous)'} ${f.url.split('/').slice(-2).join('/')}`
    if (selfSize > 0) by.set(name, (by.get(name) ?? 0) + selfSize)
    for (const child of children) walk(child)
  }
  walk(head)
  const total = [...by.values()].reduce((a, b) => a + b, 0)
  const top = [...by].sort((a, b) => b[1] - a[1]).slice(0, 15)
  return `${(total / requests).toFixed(0)} B/request: ${top.map(([name, b]) => `${(b / requests).toFixed(0)} ${name}`).join('; ')}`
}

const profiler = new Session()
profiler.connect()
const sampling = {
  samplingInterval: 256,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: true,
}
const last = Number(args.rounds) - 1
const allocations: string[] = []

const names = args.cases!.split(',')
const n = Number(args.n)
const rounds = new Map<string, number[]>()
let sent = 0
for (let round = 0; round < Number(args.rounds); round++)
  for (const name of names) {
    const vary = varied(name, all[name])
    const fixed = JSON.stringify(all[name])
    const bodies = Array.from({ length: n }, () => (vary ? vary(sent++) : fixed))
    const profiling = args.alloc && round === last
    if (profiling) await profiler.post('HeapProfiler.startSampling', sampling as never)
    const before = threadNs()
    for (const body of bodies) {
      // one turn of the event loop a request, whichever turn its reply was written in
      if (await post(body)) await turn()
    }
    const ns = threadNs() - before
    if (profiling) {
      const { profile } = await profiler.post('HeapProfiler.stopSampling')
      allocations.push(`${name}: ${bytesByFunction(profile.head as AllocNode, n)}`)
    }
    rounds.set(name, [...(rounds.get(name) ?? []), ns / 1000 / n])
  }
const load = loadavg()
  .map((x) => x.toFixed(1))
  .join(' ')
const figures = [...rounds].map(
  ([name, us]) => `${name} ${Math.min(...us).toFixed(1)} µs (${us.map((x) => x.toFixed(1)).join(' ')})`,
)
console.log(`${args.root}, µs per request, least (every round): ${figures.join(', ')} (load ${load})`)
for (const line of allocations) console.log(line)
await service.close()
