/**
 * Whether speed depends on the service's age. One instance is aged: blocks of transfers to fresh addresses
 * sealed as fast as evm_mine goes (the timers' flashblocks run too), with distinct reads between them (a new
 * address's balance and ERC-20 balanceOf, as the shared kit's *Distinct cases) so every cache fills as real
 * traffic fills it. A fresh instance of the same flags is started beside it. Then: the live heap of both after
 * a full GC, and server CPU per request of a few read cases (request-cpu.ts's method), in rounds alternating
 * the two instances (a neighbour's burst hits both); the best round of each. In memory and with --data-dir.
 *
 *   npx tsx bench/aging.ts [--blocks 1200] [--txs 2000] [--reads 20] [--n 10000] [--rounds 3]
 *                          [--modes memory,data-dir] [--flags="--gas-limit 60000000"] [--snapshots DIR]
 *
 * --snapshots DIR: also write both instances' heap snapshots there (MODE-fresh/-aged.heapsnapshot), for
 * bench/heap-diff.ts to say what the aged one holds.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { type Hex, parseGwei } from 'viem'
import { freePort, devAccount, rpc, startOurs, type Target } from './lib.js'
import { liveHeap, writeHeapSnapshot } from './live-heap.js'
import { cases, cpuPerRequest, fixtures, idleCpuPerMs, varied } from './read-cases.js'

const { values: args } = parseArgs({
  options: {
    blocks: { type: 'string', default: '1200' },
    txs: { type: 'string', default: '2000' },
    reads: { type: 'string', default: '20' },
    n: { type: 'string', default: '10000' },
    rounds: { type: 'string', default: '3' },
    modes: { type: 'string', default: 'memory,data-dir' },
    flags: { type: 'string', default: '' },
    cases: { type: 'string', default: 'chainId,balanceLatest,balanceDistinct,callDistinct' },
    snapshots: { type: 'string' },
  },
})
const blocks = Number(args.blocks)
const txs = Number(args.txs)
const names = args.cases.split(',')
const SENDERS = [1, 2, 3, 4, 5, 6, 7, 8, 9].map(devAccount)

type Instance = { target: Target; inspectPort: number; all: Record<string, unknown>; idle: number }

async function start(flags: string[]): Promise<Instance> {
  const inspectPort = await freePort()
  const target = await startOurs(flags, [`--inspect-port=127.0.0.1:${inspectPort}`])
  const fx = await fixtures(target.url)
  return { target, inspectPort, all: cases(fx.token, fx.txHash), idle: 0 }
}

/** Transfers of 1 wei to fresh addresses, signed round-robin by dev accounts 1-9 (signing before the clock). */
async function signFresh(url: string, count: number): Promise<string[]> {
  const nonces = await Promise.all(
    SENDERS.map((s) => rpc(url, 'eth_getTransactionCount', [s.address, 'pending']).then(Number)),
  )
  const raws: string[] = []
  for (let i = 0; i < count; i++) {
    const k = i % SENDERS.length
    const to = `0xa9e0${(i + 1).toString(16).padStart(36, '0')}` as Hex
    raws.push(
      await SENDERS[k]!.signTransaction({
        chainId: 196,
        type: 'eip1559',
        nonce: nonces[k]!++,
        to,
        value: 1n,
        gas: 21_000n,
        maxFeePerGas: parseGwei('10'),
        maxPriorityFeePerGas: 1_000_000n,
      }),
    )
  }
  return raws
}

let sent = 0
/** A JSON-RPC batch of `count` reads nobody asked before (the *Distinct cases), as one HTTP request. */
function distinctReads(all: Record<string, unknown>, count: number): unknown[] {
  const batch: unknown[] = []
  for (let i = 0; i < count; i++) {
    const name = i % 2 ? 'callDistinct' : 'balanceDistinct'
    batch.push({ ...JSON.parse(varied(name, all[name])!(sent++)), id: i })
  }
  return batch
}

async function age(instance: Instance): Promise<number> {
  const { url } = instance.target
  const raws = await signFresh(url, txs)
  const t0 = performance.now()
  for (let b = 0; b < blocks; b++) {
    const mine = raws.slice(Math.floor((b * txs) / blocks), Math.floor(((b + 1) * txs) / blocks))
    await Promise.all(mine.map((raw) => rpc(url, 'eth_sendRawTransaction', [raw])))
    const reads = Number(args.reads)
    if (reads > 0) await post(url, distinctReads(instance.all, reads))
    await rpc(url, 'evm_mine')
  }
  return (performance.now() - t0) / 1000
}

async function post(url: string, body: unknown) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  await res.text()
}

async function measure({ target, all, idle }: Instance, name: string): Promise<number> {
  return cpuPerRequest(target, name, all[name], { idle, amount: Number(args.n), connections: 2 })
}

async function run(mode: string) {
  const dir = mode === 'data-dir' ? mkdtempSync(join(tmpdir(), 'aging-')) : undefined
  const flags = [...(args.flags ? args.flags.split(' ') : []), ...(dir ? ['--data-dir', join(dir, 'aged')] : [])]
  const aged = await start(flags)
  const seconds = await age(aged)
  const height = BigInt(await rpc(aged.target.url, 'eth_blockNumber'))
  const fresh = await start([
    ...(args.flags ? args.flags.split(' ') : []),
    ...(dir ? ['--data-dir', join(dir, 'fresh')] : []),
  ])
  try {
    for (const instance of [fresh, aged]) for (const name of names) await measure(instance, name) // JIT warm-up
    for (const instance of [fresh, aged]) instance.idle = await idleCpuPerMs(instance.target)
    const heap = {
      fresh: (await liveHeap(fresh.target.pid!, fresh.inspectPort)).after,
      aged: (await liveHeap(aged.target.pid!, aged.inspectPort)).after,
    }
    if (args.snapshots)
      for (const [label, { target, inspectPort }] of [
        ['fresh', fresh],
        ['aged', aged],
      ] as const)
        await writeHeapSnapshot(target.pid!, inspectPort, join(args.snapshots, `${mode}-${label}.heapsnapshot`))
    const best = { fresh: new Map<string, number>(), aged: new Map<string, number>() }
    for (let r = 0; r < Number(args.rounds); r++)
      for (const [label, instance] of [
        ['fresh', fresh],
        ['aged', aged],
      ] as const)
        for (const name of names) {
          const us = await measure(instance, name)
          best[label].set(name, Math.min(us, best[label].get(name) ?? Number.POSITIVE_INFINITY))
        }
    console.log(
      `\n${mode}${args.flags ? ` ${args.flags}` : ''}: aged by ${blocks} blocks, ${txs} transfers to fresh addresses, ` +
        `${Number(args.reads) * blocks} distinct reads in ${seconds.toFixed(0)} s (height ${height})`,
    )
    console.log('| | fresh | aged | aged/fresh |\n|---|---|---|---|')
    const mb = (m: { heapUsed: number; rss: number }) => `${m.heapUsed} MB (RSS ${m.rss})`
    console.log(
      `| live heap after full GC | ${mb(heap.fresh)} | ${mb(heap.aged)} | ${(heap.aged.heapUsed / heap.fresh.heapUsed).toFixed(2)}× |`,
    )
    for (const name of names) {
      const f = best.fresh.get(name)!
      const a = best.aged.get(name)!
      console.log(`| ${name}, server CPU µs/request | ${f.toFixed(0)} | ${a.toFixed(0)} | ${(a / f).toFixed(2)}× |`)
    }
  } finally {
    await fresh.target.stop()
    await aged.target.stop()
    if (dir) rmSync(dir, { recursive: true, force: true })
  }
}

for (const mode of args.modes.split(',')) await run(mode)
