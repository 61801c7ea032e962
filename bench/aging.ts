/**
 * Whether speed depends on the service's age, at the issue's scale: an hour at 50 transfers a second on
 * X Layer's 1 s blocks (180 000 transfers in 3 600 blocks) pushed through the real service in minutes. The
 * aged instance gets each block's 50 transfers as wallets send them, one eth_sendRawTransaction a request, the
 * nine senders at once and each in nonce order (`--batch N`: N transfers a JSON-RPC batch instead, as the bench
 * did before: V8 then tuned the aged service's http and stream code to 25 KB bodies, and threw that away when
 * the measured reads began, which a real hour's traffic does not do), a few reads
 * nobody asked before (a new address's balance and ERC-20 balanceOf, the shared kit's *Distinct cases, so the
 * read caches fill as real traffic fills them), then evm_mine seals the block (the timers' flashblocks and
 * 1 s blocks run as well). What the hour leaves is what this leaves: the same blocks, receipts, indexes and
 * state (each transfer to a fresh address by default: 180 000 new accounts), only the wall clock is shorter.
 * The transfers are signed once and cached (aging-txs.ts).
 *
 * A fresh instance of the same flags is started beside it. Then: the live heap of both after a full GC (and
 * the aged one's at `--samples` points while it ages: growth per block), the idle chain's CPU, and server CPU
 * per request of each read case, all threads and the main thread alone, in `--rounds` short rounds of `--n`
 * requests alternating the two instances, each after `--warm` unmeasured requests (and with --gc a full GC):
 * the median aged/fresh ratio of the round pairs and its interquartile range (age-rounds.ts says why so).
 * Modes: in memory (the state of the last 128 blocks, the default), `history` (--history 64), `all` (--history
 * all: every block's state, the default before), with --data-dir, and `restarted`: with --data-dir, the aged
 * instance stopped after ageing and started again on its directory, so "aged" is a new process holding the
 * aged state and what is left of the gap is the state's size, not the process's age; and `anvil`: the same
 * hour and rounds with two anvils in place of ours (its blocks sealed by evm_mine too, its RSS for a heap):
 * what the same hour does to the reference node's reads. Its main-thread columns are anvil's first thread's,
 * which idles: read its all-thread ones.
 *
 *   npx tsx bench/aging.ts [--txs 180000] [--blocks 3600] [--reads 4] [--recipients 0] [--batch 1]
 *                          [--fresh-blocks 0] [--n 1500] [--rounds 16] [--warm 500] [--gc]
 *                          [--modes memory,history,all,data-dir,restarted,anvil]
 *                          [--flags="..."] [--node="..."] [--snapshots DIR] [--profile DIR] [--cases a,b]
 *
 * --flags: the service's, for both instances; --node: Node's (e.g. --node="--max-semi-space-size=32").
 * --recipients N: the transfers go to N addresses in turn instead of fresh ones.
 * --fresh-blocks N: the fresh instance gets the hour's first N blocks too (60: a minute of the same traffic), so
 * both have served the same kinds of request and only the other 59 minutes differ: V8 tunes code every request
 * shares (helpers, the http path) to what the process has served, and one that served only the measured reads
 * is a fresher process than any service in use.
 * --snapshots DIR: also write both instances' heap snapshots there (MODE-fresh/-aged.heapsnapshot), for
 * bench/heap-diff.ts to say what the aged one holds.
 * --profile DIR: one more round, each case under the inspector's CPU profiler (MODE-fresh/-aged-CASE.cpuprofile,
 * and the idle chain's 20 s before them as MODE-fresh/-aged-idle.cpuprofile,
 * for bench/profile-top.ts), with the server's CPU split between its main thread and its helper threads (V8's
 * concurrent marking and parallel scavenges run there) and the GC pauses the main thread took, by kind.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { SENDERS, signTransfersCached } from './aging-txs.js'
import { freePort, rpc, rssMb, sleep, startAnvilAutomine, startOurs, type Target } from './lib.js'
import { holdChain, pairedRounds, printRounds, releaseChain, roundOf } from './age-rounds.js'
import { liveHeap, profileWhile, writeHeapSnapshot } from './live-heap.js'
import { cases, fixtures, idleCpuPerMs, threadCpuMs, threadCpuNs, varied } from './read-cases.js'

const { values: args } = parseArgs({
  options: {
    txs: { type: 'string', default: '180000' },
    blocks: { type: 'string', default: '3600' },
    reads: { type: 'string', default: '4' },
    recipients: { type: 'string', default: '0' },
    batch: { type: 'string', default: '1' },
    'fresh-blocks': { type: 'string', default: '0' },
    n: { type: 'string', default: '1500' },
    rounds: { type: 'string', default: '16' },
    warm: { type: 'string', default: '500' },
    gc: { type: 'boolean', default: false },
    samples: { type: 'string', default: '4' },
    modes: { type: 'string', default: 'memory,history,data-dir' },
    flags: { type: 'string', default: '' },
    node: { type: 'string', default: '' },
    cases: {
      type: 'string',
      default: 'chainId,balanceLatest,balancePending,receipt,callLatest,balanceDistinct,callDistinct',
    },
    snapshots: { type: 'string' },
    profile: { type: 'string' },
  },
})
const blocks = Number(args.blocks)
const txs = Number(args.txs)
const batch = Number(args.batch)
const freshBlocks = Number(args['fresh-blocks'])
const names = args.cases.split(',')
const MODE_FLAGS: Record<string, string[]> = {
  memory: [],
  history: ['--history', '64'],
  all: ['--history', 'all'],
  'data-dir': [],
  restarted: [],
  anvil: [],
}
const load = () => loadavg()[0]!.toFixed(1)
const options = {
  rounds: Number(args.rounds),
  n: Number(args.n),
  warm: Number(args.warm),
  gc: args.gc,
  connections: 2,
}

/**
 * idle, idleMain: the idle chain's CPU per ms, of the whole process and of its main thread. inspectPort: ours
 * (V8's inspector: live heap, snapshots, profiles); anvil has none.
 */
type Instance = { target: Target; inspectPort?: number; all: Record<string, unknown>; idle: number; idleMain: number }

async function start(mode: string, flags: string[]): Promise<Instance> {
  if (mode === 'anvil') {
    const target = await startAnvilAutomine()
    const fx = await fixtures(target.url)
    // its blocks from now on as ours: sealed by evm_mine, not one per transaction
    await rpc(target.url, 'evm_setAutomine', [false])
    return { target, all: cases(fx.token, fx.txHash), idle: 0, idleMain: 0 }
  }
  const inspectPort = await freePort()
  const node = args.node ? args.node.split(' ') : []
  const target = await startOurs(flags, [...node, `--inspect-port=127.0.0.1:${inspectPort}`])
  const fx = await fixtures(target.url)
  return { target, inspectPort, all: cases(fx.token, fx.txHash), idle: 0, idleMain: 0 }
}

/** Ours: the live heap after a full GC; anvil (no collector to ask): its RSS. */
async function heldMb({ target, inspectPort }: Instance): Promise<number> {
  if (inspectPort === undefined) return Math.round(rssMb(target.pid!))
  return (await liveHeap(target.pid!, inspectPort)).after.heapUsed
}

// past any index read-cases.ts's rounds reach: their distinct addresses are then ones the aged instance never
// read while ageing (from 0 they were the same ones: its doorkeeper let them into the caches, the fresh one's not)
let sent = 2 ** 40
/** `count` reads nobody asked before (the *Distinct cases), a JSON-RPC batch or each sent alone. */
function distinctReads(all: Record<string, unknown>, count: number): unknown[] {
  const reads: unknown[] = []
  for (let i = 0; i < count; i++) {
    const name = i % 2 ? 'callDistinct' : 'balanceDistinct'
    reads.push({ ...JSON.parse(varied(name, all[name])!(sent++)), id: i })
  }
  return reads
}

/** A JSON-RPC reply: what aging.ts looks at of it. */
type Reply = { error?: { message: string } }

async function post<T = Reply[]>(url: string, body: unknown): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  return (await res.json()) as T
}

const sendRaw = (raw: string, id: number) => ({ jsonrpc: '2.0', id, method: 'eth_sendRawTransaction', params: [raw] })

function refusedIn(block: number, replies: Reply[] | Reply) {
  const refused = [replies].flat().find((r) => r.error)
  if (refused) throw new Error(`block ${block}: a transfer was refused: ${refused.error!.message}`)
}

/** A block's transfers by sender (transfer i is sender i mod SENDERS's, aging-txs.ts), each in nonce order. */
function bySender(first: number, mine: string[]): string[][] {
  const own: string[][] = Array.from({ length: SENDERS }, () => [])
  mine.forEach((raw, k) => own[(first + k) % SENDERS]!.push(raw))
  return own
}

/** One wallet's transfers, each its own request, the next sent when the last is accepted. */
async function sendInTurn(block: number, url: string, raws: string[]): Promise<void> {
  for (const raw of raws) refusedIn(block, await post<Reply>(url, sendRaw(raw, 1)))
}

type Sample = { height: bigint; heap: number }

/**
 * Ages `instance` by the hour's first `upTo` blocks of transfers (all of them by default); what it holds
 * (heldMb) at `--samples` evenly spaced heights of the hour.
 */
async function age(instance: Instance, raws: string[], upTo = blocks): Promise<{ seconds: number; samples: Sample[] }> {
  const { url } = instance.target
  const samples: Sample[] = []
  const every = Math.ceil(blocks / Number(args.samples))
  const t0 = performance.now()
  for (let b = 0; b < upTo; b++) {
    const first = Math.floor((b * txs) / blocks)
    const mine = raws.slice(first, Math.floor(((b + 1) * txs) / blocks))
    if (batch > 1)
      for (let i = 0; i < mine.length; i += batch) refusedIn(b, await post(url, mine.slice(i, i + batch).map(sendRaw)))
    else await Promise.all(bySender(first, mine).map((own) => sendInTurn(b, url, own)))
    const reads = Number(args.reads)
    if (reads > 0 && batch > 1) await post(url, distinctReads(instance.all, reads))
    else if (reads > 0) await Promise.all(distinctReads(instance.all, reads).map((read) => post(url, read)))
    await rpc(url, 'evm_mine')
    if (upTo === blocks && ((b + 1) % every === 0 || b === blocks - 1)) {
      const height = BigInt(await rpc(url, 'eth_blockNumber'))
      samples.push({ height, heap: await heldMb(instance) })
      const s = (performance.now() - t0) / 1000
      console.error(`  aged ${b + 1}/${blocks} blocks in ${s.toFixed(0)} s, height ${height}, load ${load()}`)
    }
  }
  return { seconds: (performance.now() - t0) / 1000, samples }
}

/**
 * The idle chain's CPU per ms over 10 s (its blocks and flashblocks: an aged chain's snapshot moves and GC
 * land here, not in a request's CPU), the whole process's and its main thread's, from schedstat (ns).
 */
async function idleRates(instance: Instance): Promise<void> {
  const before = threadCpuNs(instance.target.pid!)
  const t0 = performance.now()
  await sleep(10_000)
  const after = threadCpuNs(instance.target.pid!)
  const ms = performance.now() - t0
  instance.idle = (after.all - before.all) / 1e6 / ms
  instance.idleMain = (after.main - before.main) / 1e6 / ms
}

/** --profile: each case once more on each instance, profiled; where the CPU went, per request. */
async function profiled(mode: string, instances: Record<'fresh' | 'aged', Instance>, dir: string) {
  console.log(
    '| profiled round | server CPU µs/request | main thread (the idle chain included) | helper threads | GC pauses (count/ms per 1000 requests) |\n|---|---|---|---|---|',
  )
  const per = (ms: number) => ((ms * 1000) / Number(args.n)).toFixed(0)
  // the idle chain alone for 20 s: its CPU and GC pauses per second (a larger heap's mark-compacts land here)
  for (const [label, instance] of Object.entries(instances)) {
    const { pid } = instance.target
    const before = threadCpuMs(pid!)
    const { gc, profile } = await profileWhile(pid!, instance.inspectPort!, () => sleep(20_000))
    const after = threadCpuMs(pid!)
    writeFileSync(join(dir, `${mode}-${label}-idle.cpuprofile`), JSON.stringify(profile))
    const pauses = Object.entries(gc)
      .map(([kind, g]) => `${kind} ${(g.count / 20).toFixed(1)}/${(g.ms / 20).toFixed(1)}`)
      .join(', ')
    console.log(
      `| idle chain, ${label}: ms/s and GC pauses count/ms per s | | ${((after.main - before.main) / 20).toFixed(0)} | ${((after.helpers - before.helpers) / 20).toFixed(0)} | ${pauses} |`,
    )
  }
  for (const { target } of Object.values(instances)) await holdChain(target.url)
  for (const name of names)
    for (const [label, instance] of Object.entries(instances)) {
      const { pid } = instance.target
      const before = threadCpuMs(pid!)
      const { result, profile, gc } = await profileWhile(
        pid!,
        instance.inspectPort!,
        async () => (await roundOf(instance, name, { ...options, warm: 0 })).all,
      )
      const after = threadCpuMs(pid!)
      writeFileSync(join(dir, `${mode}-${label}-${name}.cpuprofile`), JSON.stringify(profile))
      const pauses = Object.entries(gc)
        .map(([kind, g]) => `${kind} ${((g.count * 1000) / Number(args.n)).toFixed(1)}/${per(g.ms)}`)
        .join(', ')
      console.log(
        `| ${name}, ${label} | ${result.toFixed(0)} | ${per(after.main - before.main)} | ${per(after.helpers - before.helpers)} | ${pauses} |`,
      )
    }
  for (const { target } of Object.values(instances)) await releaseChain(target.url)
}

/**
 * Waits (3 minutes at most) until the aged instance idles within 10 ms/s of the fresh one: an aged data
 * directory compacts for minutes after the compressed hour's writes (LevelDB's threads, 160 ms/s seen), work
 * the real hour spreads over the hour. The seconds it took.
 */
async function settle(aged: Instance, fresh: Instance): Promise<number> {
  const t0 = performance.now()
  for (;;) {
    const idle = await idleCpuPerMs(aged.target)
    if (idle <= (await idleCpuPerMs(fresh.target)) + 0.01 || performance.now() - t0 > 180_000)
      return (performance.now() - t0) / 1000
  }
}

/**
 * What each instance holds, as the lines to print: ours, the live heap after a full GC and the young generation
 * before it (with --snapshots, heap snapshots too); anvil, its RSS.
 */
async function memoryRows(mode: string, fresh: Instance, aged: Instance): Promise<string[]> {
  const table = '| | fresh | aged | aged/fresh |\n|---|---|---|---|'
  if (mode === 'anvil') {
    const rss = { fresh: Math.round(rssMb(fresh.target.pid!)), aged: Math.round(rssMb(aged.target.pid!)) }
    return [table, `| RSS | ${rss.fresh} MB | ${rss.aged} MB | ${(rss.aged / rss.fresh).toFixed(2)}× |`]
  }
  const measured = {
    fresh: await liveHeap(fresh.target.pid!, fresh.inspectPort!),
    aged: await liveHeap(aged.target.pid!, aged.inspectPort!),
  }
  if (args.snapshots)
    for (const [label, { target, inspectPort }] of [
      ['fresh', fresh],
      ['aged', aged],
    ] as const)
      await writeHeapSnapshot(target.pid!, inspectPort!, join(args.snapshots, `${mode}-${label}.heapsnapshot`))
  const heap = { fresh: measured.fresh.after, aged: measured.aged.after }
  const mb = (m: { heapUsed: number; rss: number; newSpace: number }) =>
    `${m.heapUsed} MB (RSS ${m.rss}, new space ${m.newSpace})`
  return [
    `young generation before that GC (V8 grows it under a high allocation rate): fresh ${measured.fresh.before.newSpace} MB, aged ${measured.aged.before.newSpace} MB`,
    table,
    `| live heap after full GC | ${mb(heap.fresh)} | ${mb(heap.aged)} | ${(heap.aged.heapUsed / heap.fresh.heapUsed).toFixed(2)}× |`,
  ]
}

async function run(mode: string, raws: string[]) {
  const dir = mode === 'data-dir' || mode === 'restarted' ? mkdtempSync(join(tmpdir(), 'aging-')) : undefined
  const flags = (label: string) => [
    ...(args.flags ? args.flags.split(' ') : []),
    ...(MODE_FLAGS[mode] ?? []),
    ...(dir ? ['--data-dir', join(dir, label)] : []),
  ]
  const loadBefore = load()
  let aged = await start(mode, flags('aged'))
  const { seconds, samples } = await age(aged, raws)
  const height = BigInt(await rpc(aged.target.url, 'eth_blockNumber'))
  if (mode === 'restarted') {
    await aged.target.stop()
    aged = await start(mode, flags('aged'))
  }
  const fresh = await start(mode, flags('fresh'))
  await age(fresh, raws, freshBlocks)
  try {
    for (const instance of [fresh, aged]) for (const name of names) await roundOf(instance, name, options) // JIT
    const settled = await settle(aged, fresh)
    for (const instance of [fresh, aged]) await idleRates(instance)
    const memory = await memoryRows(mode, fresh, aged)
    const idleBefore = { fresh: { ...fresh }, aged: { ...aged } }
    const rounds = await pairedRounds({ fresh, aged }, names, options)
    // again after the rounds: before them, an aged in-memory chain still prunes the ageing's last --history
    // blocks (memory-pruner's walk: ~2.5× the fresh one's idle CPU, gone once they are let go)
    for (const instance of [fresh, aged]) await idleRates(instance)
    const first = samples[0]!
    const last = samples[samples.length - 1]!
    const perBlock = ((last.heap - first.heap) * 1024) / Number(last.height - first.height)
    console.log(
      `\n${mode}${[...flags('').filter((f) => !f.includes('/'))].join(' ') ? ` (${flags('').join(' ')})` : ''}: ` +
        `aged by ${txs} transfers in ${blocks} evm_mine blocks (height ${height}), ` +
        `${Number(args.reads) * blocks} distinct reads, in ${seconds.toFixed(0)} s; load ${loadBefore} → ${load()}; ` +
        `the aged one idled as the fresh one after ${settled.toFixed(0)} s` +
        (freshBlocks ? `; the fresh one got the hour's first ${freshBlocks} blocks` : ''),
    )
    const held = mode === 'anvil' ? 'RSS' : 'live heap'
    console.log(
      `aged ${held} while ageing: ${samples.map((s) => `${s.heap} MB @${s.height}`).join(', ')}; ` +
        `growth ${perBlock.toFixed(1)} KB/block after the first sample`,
    )
    for (const line of memory) console.log(line)
    const idle = (i: Instance) => `${(i.idle * 1000).toFixed(0)} (main thread ${(i.idleMain * 1000).toFixed(0)})`
    for (const [when, of] of [
      ['before the rounds', idleBefore],
      ['after them', { fresh, aged }],
    ] as const)
      console.log(
        `| idle chain ${when}, CPU ms/s over 10 s | ${idle(of.fresh)} | ${idle(of.aged)} | ${of.fresh.idle ? `${(of.aged.idle / of.fresh.idle).toFixed(2)}×` : '-'} |`,
      )
    console.log(
      `${args.rounds} rounds of ${args.n} requests after ${args.warm} unmeasured ones${args.gc ? ', a full GC first' : ''}, the chains' timers held:`,
    )
    printRounds(rounds, names)
    if (args.profile && mode !== 'anvil') await profiled(mode, { fresh, aged }, args.profile)
    console.log(`load at the end: ${load()}`)
  } finally {
    await fresh.target.stop()
    await aged.target.stop()
    if (dir) rmSync(dir, { recursive: true, force: true })
  }
}

if (args.gc && args.modes.split(',').includes('anvil')) throw new Error('--gc asks V8 for a full GC: not with anvil')
// the run's files go into directories that may not exist yet
for (const dir of [args.profile, args.snapshots]) if (dir) mkdirSync(dir, { recursive: true })
const raws = await signTransfersCached(txs, Number(args.recipients))
for (const mode of args.modes.split(',')) await run(mode, raws)
