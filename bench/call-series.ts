/**
 * One heavy call asked many times of one fresh server of ours, each call's CPU printed in order: wall ms, the
 * main thread's CPU ms and all threads' (from /proc's schedstat, after a 5 ms pause so the compiler threads'
 * work lands with its call), a marker where the chain's head moved. For what a mean hides: the first calls' V8
 * compiles, a call after a new block (the first on a new state root), a server whose steady cost changes
 * between calls (aggregate: ~1.1 ms on the main thread for 20-40 calls, then 3.5-7 with no deopt and no
 * major GC in --trace-deopt / --trace-gc, round 3 session 9).
 *
 *   npx tsx bench/call-series.ts [--case shift|aggregate|quote] [--calls 40] [--fixed-block] [--node-args="..."]
 *
 * `--fixed-block` asks at the head's number when the calls begin instead of `latest` (new blocks then change
 * nothing the call reads); `--node-args` go to our server's node (e.g. "--trace-deopt", with
 * BENCH_SERVER_STDOUT=FILE for its output).
 */
import { loadavg } from 'node:os'
import { parseArgs } from 'node:util'
import {
  type CallCase,
  deployContracts,
  heavyStateTests,
  hexGas,
  stateTestCalls,
  threadsCpuMs,
  writePreState,
} from './heavy-setup.js'
import { rpc, sleep, startOurs } from './lib.js'

const { values: args } = parseArgs({
  options: {
    case: { type: 'string', default: 'aggregate' },
    calls: { type: 'string', default: '40' },
    'fixed-block': { type: 'boolean', default: false },
    'node-args': { type: 'string', default: '' },
  },
})

process.env.PRECONF_EVM_INTERPRETER = '1'
const ours = await startOurs(['--rpc.evmtimeout', '0'], args['node-args'].split(' ').filter(Boolean))
try {
  // the warm-up's heating runs after readiness
  await sleep(3000)
  let c: CallCase | undefined
  if (args.case === 'shift') {
    const test = heavyStateTests.shiftCombinations!
    await writePreState(ours.url, test, 'anvil')
    c = stateTestCalls('shiftCombinations', test, 10_000_000)[0]
  } else c = (await deployContracts(ours.url, 10_000_000)).calls.find((x) => x.name.includes(args.case))
  if (!c) throw new Error(`no case ${args.case}`)
  const tag = args['fixed-block'] ? await rpc(ours.url, 'eth_blockNumber', []) : 'latest'
  const pid = ours.pid!
  const cells: string[] = []
  let head = ''
  for (let i = 0; i < Number(args.calls); i++) {
    const all0 = threadsCpuMs(pid)
    const main0 = threadsCpuMs(pid, pid)
    const t0 = performance.now()
    await rpc(ours.url, 'eth_call', [{ ...c.request, gas: hexGas(c.request.gas - i) }, tag]).catch(() => {})
    const wall = performance.now() - t0
    await sleep(5)
    const main = threadsCpuMs(pid, pid) - main0
    const all = threadsCpuMs(pid) - all0
    const number = (await rpc(ours.url, 'eth_blockNumber', [])) as string
    if (number !== head) cells.push(`[block ${Number(number)}]`)
    head = number
    cells.push(`${wall.toFixed(1)}/${main.toFixed(1)}/${all.toFixed(1)}`)
  }
  const [a, b] = loadavg()
  console.log(
    `${c.name}, ${args.calls} calls at ${tag}; wall / main thread / all threads ms; load ${a!.toFixed(1)} / ${b!.toFixed(1)}`,
  )
  console.log(cells.join(' '))
} finally {
  await ours.stop()
}
