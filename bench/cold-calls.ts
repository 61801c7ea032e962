/**
 * The first heavy eth_calls of a fresh server, where a warm one's figures hide the JIT: for each case (the
 * calls of heavy-call-gas.ts, chosen by --only) a new server of ours and a new anvil, the case's state set up
 * (pre-state written or contracts deployed: no eth_call before), then its first `--calls` calls, each with a
 * gas limit of its own (no memo answers): each call's server CPU in ms (all threads, from /proc's schedstat:
 * the JIT's compiler threads count) less the idle server's own over the same time, and the main thread's alone. `--rounds` repeats it all
 * with fresh servers, ours and anvil alternating. `--node-args` go to our server's node (e.g. "--trace-deopt
 * --trace-opt"), its standard output to `--stdout FILE` (a file per case and round: FILE.<case>.<round>).
 *
 *   npx tsx bench/cold-calls.ts [--calls 5] [--rounds 2] [--only tstore,aggregate,quote] [--node-args="--trace-deopt ..."] [--stdout FILE]
 */
import { closeSync, openSync, writeSync } from 'node:fs'
import { loadavg } from 'node:os'
import { parseArgs } from 'node:util'
import {
  type CallCase,
  deployContracts,
  heavyStateTests,
  hexGas,
  idleThreadsCpuPerMs,
  stateTestCalls,
  threadsCpuMs,
  writePreState,
} from './heavy-setup.js'
import { rpc, startAnvil, startOurs, type Target } from './lib.js'

const { values: args } = parseArgs({
  options: {
    calls: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '2' },
    only: { type: 'string', default: 'tstore,aggregate,quote' },
    gas: { type: 'string', default: '10000000' },
    'node-args': { type: 'string', default: '' },
    stdout: { type: 'string' },
  },
})
const CALLS = Number(args.calls)
const GAS = Number(args.gas)
const nodeArgs = args['node-args']!.split(' ').filter((a) => a !== '')

/** A case's name and how to set it up on a node: its call. */
type Setup = { name: string; on: (url: string) => Promise<CallCase> }
const setups: Setup[] = []
for (const [name, test] of Object.entries(heavyStateTests))
  for (const c of stateTestCalls(name, test, GAS))
    setups.push({
      name: c.name,
      on: async (url) => {
        await writePreState(url, test)
        return c
      },
    })
for (const [i, name] of ['aggregate of 100 balanceOf', 'quote, 8 pools × 20 rounds'].entries())
  setups.push({ name, on: async (url) => (await deployContracts(url, GAS))[i]! })
const chosen = args.only!.split(',').flatMap((part) => setups.filter((s) => s.name.includes(part)).slice(0, 1))

/**
 * The first CALLS calls of `c` on `target`: server CPU ms of each, less the idle server's own; a line before
 * each in the server's standard output `file`, if any.
 */
async function firstCalls(target: Target, c: CallCase, file?: number): Promise<string[]> {
  const idle = await idleThreadsCpuPerMs(target.pid!, 1000)
  const out: string[] = []
  for (let i = 0; i < CALLS; i++) {
    if (file !== undefined) writeSync(file, `=== cold-calls.ts: call ${i + 1} ===\n`)
    const cpu0 = threadsCpuMs(target.pid!)
    const main0 = threadsCpuMs(target.pid!, target.pid)
    const t0 = performance.now()
    try {
      await rpc(target.url, 'eth_call', [{ ...c.request, gas: hexGas(c.request.gas - i) }, 'latest'])
    } catch (err) {
      if (!/revert|out ?of ?gas/i.test((err as Error).message)) throw err
    }
    const all = Math.max(0, threadsCpuMs(target.pid!) - cpu0 - idle * (performance.now() - t0))
    // the main thread's own (the rest is mostly V8's compiler and collector threads), not less idle
    const main = threadsCpuMs(target.pid!, target.pid) - main0
    out.push(`${all.toFixed(1)} (${main.toFixed(1)})`)
  }
  if (file !== undefined) writeSync(file, '=== cold-calls.ts: end ===\n')
  return out
}

const load = () =>
  loadavg()
    .slice(0, 2)
    .map((l) => l.toFixed(1))
    .join(' / ')
console.log(
  `first ${CALLS} eth_calls of a fresh server, CPU ms each: all threads less idle (the main thread's alone); load ${load()}`,
)
console.log('| case | round | ours | anvil | load |\n|---|---|---|---|---|')
for (let round = 1; round <= Number(args.rounds); round++) {
  for (const setup of chosen) {
    const file = args.stdout ? openSync(`${args.stdout}.${setup.name.split(/[ ,]/)[0]}.${round}`, 'w') : undefined
    const ours = await startOurs(['--rpc.evmtimeout', '0'], nodeArgs, undefined, file)
    const anvil = await startAnvil('1')
    const row: string[] = []
    try {
      // alternating which goes first
      const order = round % 2 === 1 ? [ours, anvil] : [anvil, ours]
      const results = new Map<Target, string[]>()
      for (const target of order)
        results.set(target, await firstCalls(target, await setup.on(target.url), target === ours ? file : undefined))
      row.push(results.get(ours)!.join(' '), results.get(anvil)!.join(' '))
    } finally {
      await ours.stop()
      await anvil.stop()
      if (file !== undefined) closeSync(file)
    }
    console.log(`| ${setup.name} | ${round} | ${row.join(' | ')} | ${load()} |`)
  }
}
process.exit(0)
