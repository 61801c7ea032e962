/**
 * The first heavy eth_calls a server is asked, where a warm one's figures hide the JIT: for each case (the
 * calls of heavy-call-gas.ts, chosen by --only) a new server of ours and a new anvil, the case's state set up
 * (pre-state written or contracts deployed: no eth_call before), then its first `--calls` calls, each with a
 * gas limit of its own (no memo answers): each call's server CPU in ms (all threads, from /proc's schedstat:
 * the JIT's compiler threads count) less the idle server's own over the same time, and the main thread's alone
 * (anvil runs calls on worker threads: its main thread shows 0), and their sum. `--rounds` repeats it all with
 * fresh servers, the servers' order alternating.
 *
 * Two figures: a fresh process (the default), and with `--running N` a call nobody asked before on a server
 * that has run for a while: each server first answers N rounds of other calls (the cases named by
 * `--warm-with` other than the measured one, e.g. aggregate's balanceOf loop when quote is measured — the
 * same contract, another function —, and the dev token's balanceOf, transfer estimates and eth_getBalance),
 * then the measured call's first asks.
 *
 * `--node-args` go to our server's node (NAME=value items to its environment); alternatives separated by `|`
 * are each a column of their own (e.g. `--node-args="|--always-sparkplug|PRECONF_WARM_UP=0"`: ours as is, with
 * the flag, and without the CLI's warm-up calls, in the same rounds). With `--stdout FILE`
 * our server's standard output goes to FILE.<case>.<round>.<column>, a marker line before each call (to read
 * V8's --trace-opt/--trace-deopt per call).
 *
 *   npx tsx bench/cold-calls.ts [--calls 5] [--rounds 2] [--only tstore,aggregate,quote] [--running 0]
 *     [--warm-with aggregate,quote,shift] [--node-args="A|B"] [--stdout FILE] [--baseline DIR]
 *
 * `--baseline DIR`: another checkout of this repository (its own src/), each column run from it too (labelled
 * "before").
 */
import { closeSync, openSync, writeSync } from 'node:fs'
import { loadavg } from 'node:os'
import { parseArgs } from 'node:util'
import { encodeFunctionData, type Hex } from 'viem'
import { testToken } from '../test/support/fixtures.js'
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
import { devAccount, rpc, sleep, startAnvil, startOurs, type Target } from './lib.js'

const { values: args } = parseArgs({
  options: {
    calls: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '2' },
    only: { type: 'string', default: 'tstore,aggregate,quote' },
    gas: { type: 'string', default: '10000000' },
    running: { type: 'string', default: '0' },
    'warm-with': { type: 'string', default: 'aggregate,quote,shift' },
    'node-args': { type: 'string', default: '' },
    stdout: { type: 'string' },
    baseline: { type: 'string' },
  },
})
const CALLS = Number(args.calls)
const GAS = Number(args.gas)
const RUNNING = Number(args.running)
const WARM_WITH = args['warm-with']!.split(',')
const variants = args['node-args']!.split('|').map((v) => v.split(' ').filter((a) => a !== ''))
/** The environment variables some column sets: unset for the others. */
const ENV_KEYS = new Set(variants.flat().flatMap((a) => (/^[A-Z_]+=/.test(a) ? [a.split('=')[0]!] : [])))

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
  setups.push({ name, on: async (url) => (await deployContracts(url, GAS)).calls[i]! })
const chosen = args.only!.split(',').flatMap((part) => setups.filter((s) => s.name.includes(part)).slice(0, 1))

/** `c` with a gas limit `seq` below its own (no memo answers it); a revert or running out of gas is an answer. */
async function call(url: string, c: CallCase, seq: number): Promise<void> {
  try {
    await rpc(url, 'eth_call', [{ ...c.request, gas: hexGas(c.request.gas - seq) }, 'latest'])
  } catch (err) {
    // anvil names an SSTORE's EIP-2200 stipend check ReentrancySentryOOG
    if (!/revert|out ?of ?gas|OOG/i.test((err as Error).message)) throw err
  }
}

/**
 * The first CALLS calls of `c` on `target`: server CPU ms of each, less the idle server's own; a line before
 * each in the server's standard output `file`, if any.
 */
async function firstCalls(target: Target, c: CallCase, file?: number): Promise<string[]> {
  // after other traffic (the set-up, the CLI's warm-up), V8's compiler threads may still be busy: let them finish first
  await sleep(1000)
  const idle = await idleThreadsCpuPerMs(target.pid!, 1000)
  const out: string[] = []
  const sum = { all: 0, main: 0 }
  for (let i = 0; i < CALLS; i++) {
    // the monotonic clock in µs, as a --cpu-prof profile's sample times count it: a profile cut per call
    if (file !== undefined) writeSync(file, `=== cold-calls.ts: call ${i + 1} === at ${monotonicUs()}\n`)
    const cpu0 = threadsCpuMs(target.pid!)
    const main0 = threadsCpuMs(target.pid!, target.pid)
    const t0 = performance.now()
    await call(target.url, c, i)
    const all = Math.max(0, threadsCpuMs(target.pid!) - cpu0 - idle * (performance.now() - t0))
    // the main thread's own (the rest is mostly V8's compiler and collector threads), not less idle
    const main = threadsCpuMs(target.pid!, target.pid) - main0
    out.push(`${all.toFixed(1)} (${main.toFixed(1)})`)
    sum.all += all
    sum.main += main
  }
  out.push(`Σ ${sum.all.toFixed(0)} (${sum.main.toFixed(0)})`)
  if (file !== undefined) writeSync(file, `=== cold-calls.ts: end === at ${monotonicUs()}\n`)
  return out
}

const monotonicUs = () => (process.hrtime.bigint() / 1000n).toString()

const load = () =>
  loadavg()
    .slice(0, 2)
    .map((l) => l.toFixed(1))
    .join(' / ')

/** A server to measure: ours with one set of node arguments, or anvil. */
type Peer = { label: string; start: (file?: number) => Promise<Target>; ours: boolean }
const checkouts = [undefined, ...(args.baseline ? [args.baseline] : [])]
const peers: Peer[] = [
  ...checkouts.flatMap((cwd) =>
    variants.map((v) => ({
      label: `${cwd ? 'before' : 'ours'}${v.length === 0 ? '' : ` ${v.join(' ')}`}`,
      start: (file?: number) => {
        // NAME=value items are the server's environment (e.g. PRECONF_WARM_UP=0), the others node's arguments
        const env = v.filter((a) => /^[A-Z_]+=/.test(a))
        for (const key of ENV_KEYS) delete process.env[key]
        for (const item of env) process.env[item.split('=')[0]!] = item.slice(item.indexOf('=') + 1)
        const node = v.filter((a) => !env.includes(a))
        return startOurs(['--rpc.evmtimeout', '0'], node, cwd, file)
      },
      ours: true,
    })),
  ),
  { label: 'anvil', start: () => startAnvil('1'), ours: false },
]

/**
 * Traffic of other calls on `url` before the measured one (none of its code paths' calldata): the user calls
 * and short state tests that are not `target`, and token reads and gas estimates of the dev account's token.
 */
async function warmWithOthers(url: string, target: Setup): Promise<void> {
  const others = setups.filter((s) => s !== target && WARM_WITH.some((part) => s.name.includes(part)))
  for (const other of others) {
    const c = await other.on(url)
    for (let i = 0; i < RUNNING; i++) await call(url, c, 1000 + i)
  }
  const { token } = await deployContracts(url, GAS)
  const from = devAccount(0).address
  for (let i = 0; i < RUNNING; i++) {
    const holder = `0x${(0xbeef0000 + i).toString(16).padStart(40, '0')}` as Hex
    const balanceOf = encodeFunctionData({ abi: testToken.abi, functionName: 'balanceOf', args: [holder] })
    const transfer = encodeFunctionData({ abi: testToken.abi, functionName: 'transfer', args: [holder, BigInt(i + 1)] })
    await rpc(url, 'eth_call', [{ to: token, data: balanceOf }, 'latest'])
    await rpc(url, 'eth_estimateGas', [{ from, to: token, data: transfer }])
    await rpc(url, 'eth_getBalance', [holder, 'latest'])
  }
}

console.log(
  `first ${CALLS} eth_calls of ${RUNNING > 0 ? `a server that first answered ${RUNNING} rounds of other calls (${WARM_WITH.join(', ')}, token reads)` : 'a fresh server'}, CPU ms each: all threads less idle (the main thread's alone), Σ of the ${CALLS}; load ${load()}`,
)
console.log(
  `| case | round | ${peers.map((p) => p.label).join(' | ')} | load |\n|---|---|${peers.map(() => '---|').join('')}---|`,
)
for (let round = 1; round <= Number(args.rounds); round++) {
  for (const setup of chosen) {
    const cells = new Map<Peer, string>()
    // alternating which goes first
    for (const peer of round % 2 === 1 ? peers : [...peers].reverse()) {
      const file =
        peer.ours && args.stdout
          ? openSync(`${args.stdout}.${setup.name.split(/[ ,]/)[0]}.${round}.${peers.indexOf(peer)}`, 'w')
          : undefined
      const target = await peer.start(file)
      try {
        if (RUNNING > 0) await warmWithOthers(target.url, setup)
        cells.set(peer, (await firstCalls(target, await setup.on(target.url), file)).join(' '))
      } finally {
        await target.stop()
        if (file !== undefined) closeSync(file)
      }
    }
    console.log(`| ${setup.name} | ${round} | ${peers.map((p) => cells.get(p)).join(' | ')} | ${load()} |`)
  }
}
process.exit(0)
