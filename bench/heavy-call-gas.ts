/**
 * Gas per second of heavy eth_calls: ethereum/tests' heavy state tests (bench/fixtures/heavy-state-tests.json.br:
 * vmPerformance's loopExp and loopMul, stEIP1153's 15_tstoreCannotBeDosd, stShift's shiftCombinations; their
 * pre-state written with the anvil_set* methods, the transaction sent as an eth_call without its value) and two calls users send
 * (test/fixtures/HeavyCalls.sol: an aggregate of 100 ERC-20 balanceOf, a quote through 8 pools × 20 rounds of
 * 512-bit mulDiv), on ours with the interpreter (PRECONF_EVM_INTERPRETER=1), ours without it (=0), anvil and
 * Hardhat 3 (the shared kit's peers, when installed), in one run. Each call runs `--runs` times with a different gas limit (no memo answers it): the median wall time over
 * HTTP, and the server's CPU per call (all its threads, from /proc's schedstat in nanoseconds: the figure to trust
 * on a busy machine; stat's 10 ms ticks were coarser than anvil's calls) less the idle server's own CPU over the same time (ours builds flashblocks while it waits), which
 * gives gas/s, the gas being what anvil's eth_simulateV1 reports for the call. The idle rate is measured again
 * before each row and shown beside it (ms/s): a rate taken once at start-up (during the warm-up's heating) left
 * a row to carry whatever the server did in the background after the case's set-up (the blocks of the contracts'
 * deployment, V8's compiles and collections after the long loops), and a row whose idle figure is far above the
 * chain's ~20-40 ms/s says its figure is less sure. Each row is the mean of the first `--runs` calls a server is
 * asked for that case, so it includes what V8 compiles for them: bench/cold-calls.ts shows those calls one by
 * one, `--warmup N` the warm ones.
 *
 * `--warmup N` runs each call N times more before the timed runs, untimed (a server that has run for a while has
 * its JIT's code for the EVM; a fresh one compiles it during its first heavy calls): the figures are then the
 * warm ones, and the first call's CPU is shown beside them.
 *
 * `--skip-reference` leaves ours without the interpreter out (the slowest target, 17-77× anvil).
 *
 *   npx tsx bench/heavy-call-gas.ts [--runs 3] [--warmup 0] [--gas 10000000] [--only NAME[,NAME...]] [--skip-reference]
 */
import { loadavg } from 'node:os'
import { parseArgs } from 'node:util'
import {
  type CallCase,
  deployContracts,
  heavyStateTests as tests,
  hexGas,
  idleThreadsCpuPerMs,
  stateTestCalls,
  threadsCpuMs,
  writePreState,
} from './heavy-setup.js'
import { rpc, startAnvil, startHardhat, startOurs, type Target } from './lib.js'

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    warmup: { type: 'string', default: '0' },
    gas: { type: 'string', default: '10000000' },
    only: { type: 'string' },
    'skip-reference': { type: 'boolean', default: false },
  },
})
const RUNS = Number(args.runs)
const WARMUP = Number(args.warmup)
/** The calls' gas (the loops run until it is gone): low enough that ours answers within its 5 s call timeout. */
const GAS_CAP = Number(args.gas)
/** How long a server's idle CPU is measured before each row. */
const IDLE_MS = 1000

type Timing = { ms: number; cpu: number; first?: number } | { error: string }

/**
 * Median wall ms of the call over HTTP and the server's mean CPU ms per call, or the error it answered; with
 * --warmup, the CPU of the first (untimed) run too.
 */
async function time(target: Target, c: CallCase): Promise<Timing> {
  let first: number | undefined
  let seq = 0
  for (let i = 0; i < WARMUP; i++) {
    const warm = await runs(target, c, 1, seq++)
    if ('error' in warm) return warm
    first ??= warm.cpu
  }
  const timed = await runs(target, c, RUNS, seq)
  return 'error' in timed ? timed : { ...timed, first }
}

/** `n` runs of the call, each with a gas limit of its own from `seq` on. */
async function runs(target: Target, c: CallCase, n: number, seq: number): Promise<Timing> {
  const { url } = target
  const times: number[] = []
  const cpu0 = threadsCpuMs(target.pid!)
  const wall0 = performance.now()
  for (let i = 0; i < n; i++) {
    const request = { ...c.request, gas: hexGas(c.request.gas - seq - i) }
    const t0 = performance.now()
    try {
      await rpc(url, 'eth_call', [request, 'latest'])
    } catch (err) {
      const message = (err as Error).message
      if (!/revert|out ?of ?gas/i.test(message)) return { error: message.slice(0, 60) }
    }
    times.push(performance.now() - t0)
  }
  // the idle chain's own CPU (flashblocks, blocks) over the same time taken off
  const own = idle.get(target)! * (performance.now() - wall0)
  const cpu = Math.max(0, threadsCpuMs(target.pid!) - cpu0 - own) / n
  times.sort((a, b) => a - b)
  return { ms: times[Math.floor(times.length / 2)]!, cpu }
}

/** The call's gas used (eth_simulateV1 on anvil, which reports it whether the call succeeds or not). */
async function gasOf(url: string, c: CallCase): Promise<number> {
  const call = { ...c.request, gas: hexGas(c.request.gas) }
  const [block] = (await rpc(url, 'eth_simulateV1', [{ blockStateCalls: [{ calls: [call] }] }, 'latest'])) as {
    calls: { gasUsed: string }[]
  }[]
  return Number(block!.calls[0]!.gasUsed)
}

// no call timeout (anvil has none): a loaded machine's slow call is a figure, not a -32002
const NO_TIMEOUT = ['--rpc.evmtimeout', '0']
process.env.PRECONF_EVM_INTERPRETER = '1'
const interpreter = { ...(await startOurs(NO_TIMEOUT)), label: 'ours, interpreter' }
process.env.PRECONF_EVM_INTERPRETER = '0'
const reference = args['skip-reference']
  ? undefined
  : { ...(await startOurs(NO_TIMEOUT)), label: 'ours, @ethereumjs (patched)' }
const anvil = await startAnvil('1')
const hardhat = await startHardhat()
if (!hardhat) console.log('(no Hardhat: npm install --prefix ../shared/bench/peers, or PEERS_DIR)')
const targets: Target[] = [interpreter, ...(reference ? [reference] : []), anvil, ...(hardhat ? [hardhat] : [])]
/** Each server's idle CPU in ms per ms, measured before each row. */
const idle = new Map<Target, number>()
/** One table row: the call on every target, its gas from anvil; each target's CPU as a multiple of anvil's. */
async function row(c: CallCase, on: Map<Target, CallCase>): Promise<void> {
  const gas = await gasOf(anvil.url, on.get(anvil)!)
  const results = []
  for (const target of targets) {
    // the idle rate again, now: a server's background CPU after the case's set-up (the blocks of its
    // deployments, V8's compiles and collections after earlier cases) is not the call's
    idle.set(target, await idleThreadsCpuPerMs(target.pid!, IDLE_MS))
    results.push(await time(target, on.get(target)!))
  }
  const peer = results[targets.indexOf(anvil)]!
  const rate = (ms: number) => (ms > 0 ? (gas / ms / 1000).toFixed(1) : '-')
  const times = (cpu: number) => ('cpu' in peer && peer.cpu > 0 ? `, ${(cpu / peer.cpu).toFixed(1)}×` : '')
  const cells = results.map((r, i) =>
    'error' in r
      ? r.error
      : `${r.ms.toFixed(0)} / ${r.cpu.toFixed(1)} (${rate(r.cpu)}${targets[i] === anvil ? '' : times(r.cpu)})${r.first === undefined ? '' : `, first ${r.first.toFixed(0)}`}, idle ${(idle.get(targets[i]!)! * 1000).toFixed(0)} ms/s`,
  )
  console.log(`| ${c.name} | ${gas} | ${cells.join(' | ')} |`)
}

const wanted = (c: CallCase) => !args.only || args.only.split(',').some((part) => c.name.includes(part))
try {
  const [a, b] = loadavg()
  console.log(
    `heavy eth_calls, gas capped at ${GAS_CAP}, median of ${RUNS} over HTTP${WARMUP > 0 ? ` after ${WARMUP} untimed` : ''}; load average ${a!.toFixed(1)} / ${b!.toFixed(1)} (1 / 5 min)`,
  )
  const columns = targets.map((t) => t.label).join(' | ')
  console.log(`wall / server CPU ms per call (Mgas/s of server CPU, CPU × anvil's)\n| call | gas | ${columns} |`)
  console.log(`|---|---|${targets.map(() => '---|').join('')}`)
  for (const [name, test] of Object.entries(tests)) {
    const calls = stateTestCalls(name, test, GAS_CAP).filter(wanted)
    if (calls.length === 0) continue
    for (const target of targets) await writePreState(target.url, test, target === hardhat ? 'hardhat' : 'anvil')
    for (const c of calls) await row(c, new Map(targets.map((t) => [t, c])))
  }
  const deployed = new Map<Target, CallCase[]>()
  for (const target of targets) deployed.set(target, (await deployContracts(target.url, GAS_CAP)).calls)
  for (const [i, c] of deployed.get(anvil)!.entries())
    if (wanted(c)) await row(c, new Map(targets.map((t) => [t, deployed.get(t)![i]!])))
} finally {
  for (const target of targets) await target.stop()
}
