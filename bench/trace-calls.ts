/**
 * debug_trace* on ours beside anvil, over HTTP: debug_traceTransaction of the last transaction of a block of
 * `--transfers` ERC-20 transfers (its trace replays every transaction before it), and debug_traceCall of the
 * two heavy calls of test/fixtures/HeavyCalls.sol (an aggregate of 100 balanceOf, a quote through 8 pools ×
 * 20 rounds; bench/heavy-setup.ts deploys them), each with the struct logger (geth's default), callTracer and
 * prestateTracer. Per trace: the median wall ms, and the server's CPU ms (all its threads, /proc's schedstat)
 * less its idle CPU over the same time, measured again before each row. `--baseline DIR` runs another
 * checkout of this repository (its own src/) as a column too, in the same run: before/after.
 *
 *   npx tsx bench/trace-calls.ts [--runs 5] [--warmup 3] [--transfers 80] [--baseline DIR] [--only NAME[,NAME...]]
 *        [--profile DIR]
 *
 * --profile DIR: our server (not the baseline's) runs under --cpu-prof, its profile written to DIR when it
 * stops; with --only and many --runs the traces are most of it (bench/profile-top.ts reads it).
 */
import { loadavg } from 'node:os'
import { parseArgs } from 'node:util'
import { encodeFunctionData, type Hex } from 'viem'
import { testToken } from '../test/support/fixtures.js'
import { deployContracts, deployer, idleThreadsCpuPerMs, threadsCpuMs } from './heavy-setup.js'
import { devAccount, rpc, sleep, startAnvil, startOurs, type Target } from './lib.js'

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '3' },
    transfers: { type: 'string', default: '80' },
    baseline: { type: 'string' },
    only: { type: 'string' },
    profile: { type: 'string' },
  },
})
const RUNS = Number(args.runs)
const WARMUP = Number(args.warmup)
const TRANSFERS = Number(args.transfers)
const GAS = 10_000_000
const SENDERS = [0, 1, 2, 3].map(devAccount)
// a timeout far above the 5 s default: the struct logs of a heavy call take longer than that on a busy machine, anvil's too
const TRACERS = [
  { name: 'struct logger', config: { timeout: '120s' } },
  { name: 'callTracer', config: { tracer: 'callTracer', timeout: '120s' } },
  { name: 'prestateTracer', config: { tracer: 'prestateTracer', timeout: '120s' } },
]

/** A trace to time on one server: its method and params. */
type Trace = { method: string; params: unknown[] }
type Case = { name: string; on: Map<Target, Trace> }

async function sendAll(url: string, raws: Hex[]): Promise<Hex[]> {
  return Promise.all(raws.map((raw) => rpc<Hex>(url, 'eth_sendRawTransaction', [raw])))
}

/**
 * A block of TRANSFERS token transfers, round-robin from four dev accounts (the first three funded by the
 * deployer first), mined at once with the server's mining stopped; the hash of its last transaction.
 */
async function transferBlock(url: string, token: Hex): Promise<Hex> {
  const chainId = Number(await rpc(url, 'eth_chainId'))
  const gasPrice = BigInt(await rpc(url, 'eth_gasPrice')) * 2n
  const nonces = await Promise.all(SENDERS.map((s) => rpc(url, 'eth_getTransactionCount', [s.address, 'pending'])))
  const sign = (k: number, to: Hex, amount: bigint) =>
    SENDERS[k]!.signTransaction({
      chainId,
      nonce: Number(nonces[k]++),
      to: token,
      data: encodeFunctionData({ abi: testToken.abi, functionName: 'transfer', args: [to, amount] }),
      gas: 100_000n,
      gasPrice,
    })
  const funding = await sendAll(url, await Promise.all([1, 2, 3].map((k) => sign(0, SENDERS[k]!.address, 10n ** 22n))))
  for (const hash of funding) while (!(await rpc(url, 'eth_getTransactionReceipt', [hash]))) await sleep(50)
  await rpc(url, 'evm_setAutomine', [false])
  await rpc(url, 'evm_setIntervalMining', [0])
  const raws: Hex[] = []
  for (let i = 0; i < TRANSFERS; i++)
    raws.push(await sign(i % SENDERS.length, `0x${(0xabc0000 + i).toString(16).padStart(40, '0')}`, 1n))
  const hashes = await sendAll(url, raws)
  await rpc(url, 'evm_mine')
  const receipt = await rpc<{ blockNumber: Hex }>(url, 'eth_getTransactionReceipt', [hashes.at(-1)])
  const block = await rpc<{ transactions: Hex[] }>(url, 'eth_getBlockByNumber', [receipt.blockNumber, false])
  if (!hashes.every((h) => block.transactions.includes(h)))
    throw new Error(`the transfers were not mined in one block on ${url}`)
  // the block's own order (a server orders by fee, then arrival): its last transaction replays all the others
  return block.transactions.at(-1)!
}

/** The cases on every target: each server's own block, token and contracts. */
async function setUp(targets: Target[]): Promise<Case[]> {
  const per = new Map<Target, { last: Hex; calls: { name: string; request: object }[] }>()
  for (const t of targets) {
    const { calls, token } = await deployContracts(t.url, GAS)
    per.set(t, { last: await transferBlock(t.url, token), calls })
  }
  const cases: Case[] = []
  const of = (make: (p: NonNullable<ReturnType<typeof per.get>>) => Trace) =>
    new Map(targets.map((t) => [t, make(per.get(t)!)]))
  for (const { name, config } of TRACERS)
    cases.push({
      name: `traceTransaction, last of ${TRANSFERS} transfers, ${name}`,
      on: of((p) => ({ method: 'debug_traceTransaction', params: [p.last, config] })),
    })
  for (const [i, call] of per.get(targets[0]!)!.calls.entries())
    for (const { name, config } of TRACERS)
      cases.push({
        name: `traceCall ${call.name.split(',')[0]}, ${name}`,
        on: of((p) => ({
          method: 'debug_traceCall',
          params: [{ ...p.calls[i]!.request, gas: `0x${GAS.toString(16)}` }, 'latest', config],
        })),
      })
  return cases
}

type Timing = { ms: number; cpu: number; bytes: number } | { error: string }

async function time(target: Target, trace: Trace, idle: number): Promise<Timing> {
  const once = async () => {
    const t0 = performance.now()
    const response = await fetch(target.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: trace.method, params: trace.params }),
    })
    const text = await response.text()
    const ms = performance.now() - t0
    const { error } = JSON.parse(text) as { error?: { message: string } }
    if (error) throw new Error(error.message)
    return { ms, bytes: text.length }
  }
  try {
    for (let i = 0; i < WARMUP; i++) await once()
    const times: number[] = []
    let bytes = 0
    const cpu0 = threadsCpuMs(target.pid!)
    const wall0 = performance.now()
    for (let i = 0; i < RUNS; i++) {
      const r = await once()
      times.push(r.ms)
      bytes = r.bytes
    }
    const cpu = Math.max(0, threadsCpuMs(target.pid!) - cpu0 - idle * (performance.now() - wall0)) / RUNS
    times.sort((a, b) => a - b)
    return { ms: times[Math.floor(times.length / 2)]!, cpu, bytes }
  } catch (err) {
    return { error: (err as Error).message.slice(0, 80) }
  }
}

const load = () =>
  loadavg()
    .slice(0, 2)
    .map((l) => l.toFixed(1))
    .join(' / ')

const NO_TIMEOUT = ['--rpc.evmtimeout', '0']
const profiling = args.profile ? ['--cpu-prof', `--cpu-prof-dir=${args.profile}`, '--cpu-prof-interval=100'] : []
const targets: Target[] = [{ ...(await startOurs(NO_TIMEOUT, profiling)), label: 'ours' }]
if (args.baseline) targets.push({ ...(await startOurs(NO_TIMEOUT, [], args.baseline)), label: 'before' })
targets.push({ ...(await startAnvil('1')), label: 'anvil' })
try {
  const cases = (await setUp(targets)).filter(
    (c) => !args.only || args.only.split(',').some((part) => c.name.includes(part)),
  )
  console.log(
    `debug_trace* over HTTP, ${WARMUP} untimed then ${RUNS} timed each; load ${load()} (1 / 5 min); deployer ${deployer.address}`,
  )
  console.log("wall ms (median) / server CPU ms per trace less idle, CPU × anvil's; response KB")
  console.log(
    `| trace | ${targets.map((t) => t.label).join(' | ')} | load |\n|---|${targets.map(() => '---|').join('')}---|`,
  )
  for (const c of cases) {
    const results: Timing[] = []
    // alternating which server goes first
    const order = cases.indexOf(c) % 2 === 0 ? targets : [...targets].reverse()
    const byTarget = new Map<Target, Timing>()
    for (const t of order) byTarget.set(t, await time(t, c.on.get(t)!, await idleThreadsCpuPerMs(t.pid!, 1000)))
    for (const t of targets) results.push(byTarget.get(t)!)
    const anvil = results.at(-1)!
    const cells = results.map((r, i) => {
      if ('error' in r) return r.error
      const times =
        i < results.length - 1 && 'cpu' in anvil && anvil.cpu > 0 ? `, ${(r.cpu / anvil.cpu).toFixed(1)}×` : ''
      return `${r.ms.toFixed(1)} / ${r.cpu.toFixed(1)}${times}; ${(r.bytes / 1024).toFixed(0)} KB`
    })
    console.log(`| ${c.name} | ${cells.join(' | ')} | ${load()} |`)
  }
} finally {
  for (const t of targets) await t.stop()
}
process.exit(0)
