/**
 * The interpreter alone on the heavy state tests (bench/fixtures/heavy-state-tests.json.br), in process: no
 * server, no HTTP, each case's transaction as a plain call through CallEvms with the interpreter on, CPU ms per
 * call (process.cpuUsage, the best of `--runs`). For direction while working on the interpreter's opcodes; the
 * figures beside anvil come from bench/heavy-call-gas.ts.
 *
 *   npx tsx bench/interpreter-heavy.ts [--runs 3] [--only NAME] [--gas 10000000]
 */
import { readFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { parseArgs } from 'node:util'
import { brotliDecompressSync } from 'node:zlib'
import { CallEvms } from '../src/evm/execution/fast-call.js'
import { installEvmPatches } from '../src/evm/patches/install.js'
import { callEnv, callRequestOf } from '../test/support/state-tests/call-path.js'
import type { Case, StateTest } from '../test/support/state-tests/fixtures.js'

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    only: { type: 'string' },
    gas: { type: 'string', default: '10000000' },
  },
})
const tests = JSON.parse(
  brotliDecompressSync(readFileSync(new URL('fixtures/heavy-state-tests.json.br', import.meta.url))).toString(),
) as Record<string, StateTest>

await installEvmPatches()
console.log(
  `load ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
)
for (const [name, test] of Object.entries(tests)) {
  for (const expected of test.post) {
    const label = test.post.length > 1 ? `${name} d${expected.indexes.data}` : name
    if (args.only && !label.includes(args.only)) continue
    const c: Case = { group: 'heavy', fork: 'Prague', name, test, expected, id: label }
    const call = callRequestOf(c)!
    const request = { from: call.request.from, to: call.request.to, data: call.request.data }
    const gas = call.gas < BigInt(args.gas) ? call.gas : BigInt(args.gas)
    const env = await callEnv(c)
    const evms = new CallEvms(env.vm, 600_000, true)
    let best = Number.POSITIVE_INFINITY
    let first = 0
    let used = 0n
    for (let i = 0; i < Number(args.runs); i++) {
      const before = process.cpuUsage()
      const result = await evms.runOnce(env.view!, env.header, request, gas - BigInt(i))
      const { user, system } = process.cpuUsage(before)
      best = Math.min(best, (user + system) / 1000)
      if (i === 0) first = (user + system) / 1000
      used = result?.execResult.executionGasUsed ?? -1n
    }
    console.log(
      `${label.padEnd(28)} ${best.toFixed(1).padStart(8)} ms CPU (first ${first.toFixed(1)})  gas ${used}  ${(Number(used) / best / 1000).toFixed(1)} Mgas/s`,
    )
  }
}
