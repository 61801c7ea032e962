/**
 * The shared kit's own rpc-bench (../shared/bench/rpc-bench.mjs, run as it is) on ours, a baseline checkout and
 * anvil in one run, rounds alternating the targets: req/s and server CPU µs per request (the kit's
 * `--server-pid`, from /proc) of each case, each round's figures with the load average beside them, then the
 * best round of each target (most req/s, least CPU) and ours/anvil, and ours/anvil taken round by round (the
 * median and quartiles of those ratios): a neighbour's burst or a slow spell of the machine moves every server of
 * a round alike, and the best rounds of two targets may come from different spells. Issue 28's read goals are
 * stated in this kit's cases (callDistinct, balanceDistinct, eth_getBalance pending and latest).
 *
 *   npx tsx bench/kit-reads.ts [--rounds 3] [--duration 5] [--connections 16]
 *                              [--cases callDistinct,balanceDistinct,balancePending,balanceLatest] [--baseline DIR]
 *                              [--floor] [--anvil kit|silent]
 *
 * `--anvil`: `kit` (the default) starts anvil as the kit's run-peers.sh does, the terms issue 28's goals were stated
 * in (automine, each request logged to a file); `silent` with --silent and 1 s blocks, as the other benches here.
 *
 * `--floor`: a bare node:http server (floors.ts) answering every case's request with a constant is run as a target
 * too: what any server on Node pays per request before doing anything, in the kit's own terms and rounds.
 *
 * The kit is run from a scratch copy beside this repository's node_modules (it needs autocannon and viem, which
 * it does not install), with `--retries 0`: other work on a shared machine would make it wait for quiet.
 */
import { spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { startFloor } from './floors.js'
import { quartiles, startAnvil, startAnvilAsKit, startOurs, type Target } from './lib.js'

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '16' },
    cases: { type: 'string', default: 'callDistinct,balanceDistinct,balancePending,balanceLatest' },
    baseline: { type: 'string' },
    floor: { type: 'boolean', default: false },
    anvil: { type: 'string', default: 'kit' },
  },
})

if (!['kit', 'silent'].includes(args.anvil)) throw new Error(`--anvil: kit or silent, got ${args.anvil}`)
const repo = new URL('..', import.meta.url).pathname
const kit = mkdtempSync(join(tmpdir(), 'kit-reads-'))
cpSync(join(repo, '../shared/bench/rpc-bench.mjs'), join(kit, 'rpc-bench.mjs'))
cpSync(join(repo, '../shared/bench/lib'), join(kit, 'lib'), { recursive: true })
cpSync(join(repo, '../shared/bench/contracts'), join(kit, 'contracts'), { recursive: true })
symlinkSync(join(repo, 'node_modules'), join(kit, 'node_modules'))

interface KitRow {
  case: string
  rps: number
  serverCpuUsPerReq: number | null
}
interface Run {
  label: string
  target: Target
  fixtures?: { token: string; txHash: string }
  rows: Map<string, KitRow[]>
}

const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')

/** One pass of the kit over every case on `run`'s target (the first deploys the kit's fixtures). */
function kitPass(run: Run): KitRow[] {
  const out = join(kit, `${run.label}.json`)
  const fixture = run.fixtures ? ['--token', run.fixtures.token, '--tx', run.fixtures.txHash] : []
  const result = spawnSync(
    process.execPath,
    [
      join(kit, 'rpc-bench.mjs'),
      ...['--url', run.target.url, '--server-pid', String(run.target.pid), '--out', out],
      ...['--cases', args.cases!, '--connections', args.connections!, '--duration', args.duration!],
      ...['--retries', '0', ...fixture],
    ],
    { cwd: kit, encoding: 'utf8' },
  )
  if (result.status !== 0) throw new Error(`rpc-bench on ${run.label} failed: ${result.stderr.slice(-600)}`)
  const report = JSON.parse(readFileSync(out, 'utf8')) as { fixtures: Run['fixtures']; results: KitRow[] }
  run.fixtures ??= report.fixtures
  return report.results
}

const runs: Run[] = []
try {
  runs.push({ label: 'ours', target: await startOurs(), rows: new Map() })
  if (args.baseline) runs.push({ label: 'before', target: await startOurs([], [], args.baseline), rows: new Map() })
  if (args.floor) runs.push({ label: 'node:http', target: await startFloor('node:http'), rows: new Map() })
  const anvil = args.anvil === 'kit' ? await startAnvilAsKit(join(kit, 'anvil.log')) : await startAnvil('1')
  runs.push({ label: 'anvil', target: anvil, rows: new Map() })
  for (const run of runs) {
    // the floor deploys nothing: it is sent ours' fixtures' addresses and answers them with a constant
    if (run.label === 'node:http') run.fixtures = runs[0]!.fixtures
    kitPass(run) // fixtures and the JIT's warm-up, not recorded
  }
  const cell = (row: KitRow) => `${row.rps} req/s ${row.serverCpuUsPerReq} µs`
  for (let round = 0; round < Number(args.rounds); round++) {
    const order = round % 2 ? [...runs].reverse() : runs
    const line: string[] = []
    for (const run of order) {
      const before = loadavg()
      for (const row of kitPass(run)) {
        run.rows.set(row.case, [...(run.rows.get(row.case) ?? []), row])
        line.push(`${run.label} ${row.case} ${cell(row)}`)
      }
      line.push(`(load ${before})`)
    }
    console.log(`round ${round + 1}: ${line.join('; ')}`)
  }
  const anvilRun = runs.at(-1)!
  const best = (run: Run, name: string) => {
    const rows = run.rows.get(name) ?? []
    return {
      rps: Math.max(...rows.map((r) => r.rps)),
      cpu: Math.min(...rows.map((r) => r.serverCpuUsPerReq ?? Number.POSITIVE_INFINITY)),
    }
  }
  console.log(
    `\nbest of ${args.rounds} rounds, ${args.connections} connections, ${anvil.label}, load after: ${loadavg()}`,
  )
  /** `run`'s req/s over anvil's, round by round, as the quartiles of those ratios. */
  const paired = (run: Run, name: string) => {
    const theirs = anvilRun.rows.get(name) ?? []
    const [q1, median, q3] = quartiles((run.rows.get(name) ?? []).map((row, i) => row.rps / theirs[i]!.rps))
    return `${median.toFixed(2)}× (${q1.toFixed(2)}-${q3.toFixed(2)})`
  }
  const floor = runs.find((run) => run.label === 'node:http')
  console.log(
    `| case | ${runs.map((r) => `${r.label} req/s (CPU µs)`).join(' | ')} | ours/anvil, best | ours/anvil, by round |${floor ? ' node:http/anvil, by round |' : ''}`,
  )
  console.log(`|---|${runs.map(() => '---|').join('')}---|---|${floor ? '---|' : ''}`)
  for (const name of args.cases!.split(',')) {
    const cells = runs.map((run) => {
      const b = best(run, name)
      return `${b.rps} (${b.cpu})`
    })
    console.log(
      `| ${name} | ${cells.join(' | ')} | ${(best(runs[0]!, name).rps / best(anvilRun, name).rps).toFixed(2)}× | ${paired(runs[0]!, name)} |${floor ? ` ${paired(floor, name)} |` : ''}`,
    )
  }
} finally {
  for (const run of runs) await run.target.stop()
  rmSync(kit, { recursive: true, force: true })
}
