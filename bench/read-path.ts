/**
 * Read-path throughput against anvil in the same run: the shared kit's rpc-bench cases (chainId,
 * blockNumber, getBalance latest/pending, ERC-20 balanceOf, receipt, a batch of 10 mixed calls) plus
 * balanceOf on `pending`, which on our /flashblocks runs on the latest flashblock's state. Each case runs on
 * ours and then on anvil, back to back, so machine load affects both alike; the table reports req/s, p50/p99,
 * server CPU µs per request (from /proc) and ours/anvil.
 *
 *   npm run bench:reads -- [--seconds 5] [--connections 16] [--cases callLatest,callPending] [--cpu-prof DIR]
 *                          [--baseline DIR]   (another checkout, e.g. `git worktree add DIR <commit>`, run as a
 *                                             third target in the same run: before/after beside anvil)
 *                          [--follower]       (ours, and the baseline, are followers of one embedded leader on this
 *                                             machine: reads served from upstream-backed and re-executed state)
 */
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { cases, cpuMs, fixtures, varied } from './read-cases.js'
import { startAnvil, startOurs, type Target } from './lib.js'

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '1' },
    connections: { type: 'string', default: '16' },
    cases: { type: 'string' },
    'cpu-prof': { type: 'string' },
    baseline: { type: 'string' },
    follower: { type: 'boolean', default: false },
  },
})

interface Row {
  rps: number
  p50: number
  p99: number
  cpuUs: number
}

let sent = 0

async function load(target: Target, name: string, body: unknown, seconds: number): Promise<Row> {
  const vary = varied(name, body)
  const opts = {
    url: target.url,
    method: 'POST' as const,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    connections: Number(args.connections),
    ...(vary
      ? { requests: [{ setupRequest: (request: { body?: string }) => ({ ...request, body: vary(sent++) }) }] }
      : {}),
  }
  const check = await (await fetch(target.url, { method: 'POST', headers: opts.headers, body: opts.body })).text()
  if (check.includes('"error"')) throw new Error(`${target.label}: ${check.slice(0, 300)}`)
  if (Number(args.warmup) > 0) await autocannon({ ...opts, duration: Number(args.warmup) })
  const cpu0 = cpuMs(target.pid!)
  const result = await autocannon({ ...opts, duration: seconds })
  const cpu = cpuMs(target.pid!) - cpu0
  if (result.non2xx || result.errors)
    throw new Error(`${target.label}: ${result.non2xx} non-2xx, ${result.errors} errors`)
  const requests = result.requests.total
  return {
    rps: Math.round(requests / seconds),
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuUs: Math.round((cpu * 1000) / requests),
  }
}

const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')
const group = (n: number) => n.toLocaleString('en-US').replaceAll(',', ' ')

const leader = args.follower ? await startOurs() : undefined
const follow = leader ? ['--upstream', new URL('/', leader.url).href, '--upstream-feed', leader.feedUrl!] : []
const ours = await startOurs(follow, args['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', args['cpu-prof']] : [])
const baseline = args.baseline ? await startOurs(follow, [], args.baseline) : undefined
const anvil = await startAnvil('1')
try {
  const fx = { ours: await fixtures(ours.url), anvil: await fixtures(anvil.url) }
  const all = { ours: cases(fx.ours.token, fx.ours.txHash), anvil: cases(fx.anvil.token, fx.anvil.txHash) }
  const fxBase = baseline && (await fixtures(baseline.url))
  const base = fxBase && cases(fxBase.token, fxBase.txHash)
  const names = args.cases?.split(',') ?? Object.keys(all.ours)
  // one short pass over every case first, so no case pays the JIT's warm-up for the ones after it
  for (const name of names) {
    await load(ours, name, all.ours[name], 1)
    if (baseline && base) await load(baseline, name, base[name], 1)
  }
  const served = leader ? '; ours: a follower of an embedded leader' : ''
  console.log(`load average before: ${loadavg()}; ${args.seconds} s per case, ${args.connections} connections${served}`)
  const cell = (r: Row) => `${group(r.rps)} / ${r.p50} / ${r.p99}, ${r.cpuUs} µs`
  const head = baseline ? ' before req/s, p50/p99 ms, CPU µs | before/anvil |' : ''
  console.log(`| case | anvil req/s, p50/p99 ms, CPU µs |${head} ours req/s, p50/p99 ms, CPU µs | ours/anvil |`)
  console.log(baseline ? '|---|---|---|---|---|---|' : '|---|---|---|---|')
  for (const name of names) {
    const before = baseline && base ? await load(baseline, name, base[name], Number(args.seconds)) : undefined
    const a = await load(ours, name, all.ours[name], Number(args.seconds))
    const b = await load(anvil, name, all.anvil[name], Number(args.seconds))
    const was = before ? ` ${cell(before)} | ${(before.rps / b.rps).toFixed(2)}× |` : ''
    console.log(`| ${name} | ${cell(b)} |${was} ${cell(a)} | ${(a.rps / b.rps).toFixed(2)}× |`)
  }
  console.log(`load average after: ${loadavg()}`)
} finally {
  await ours.stop()
  await baseline?.stop()
  await leader?.stop()
  await anvil.stop()
}
