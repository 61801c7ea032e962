/**
 * CPU per eth_call without a load generator competing for the cores: the executor alone and the full
 * HTTP path (one keep-alive connection, requests back to back), on the harness's service with TestToken.
 *
 *   npx tsx bench/call-cpu.ts [--n 3000] [--executor-only] [--cpu-prof FILE]
 *
 * The distinct calls also run 16 at a time, as 16 clients send them (the row's figure is per 16 calls).
 *
 * `--cpu-prof FILE` writes a .cpuprofile of the timed loops only (no module loading or deployment in it).
 */
import { writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { parseArgs } from 'node:util'
import { encodeFunctionData, hexToBytes } from 'viem'
import { startHarness } from '../test/support/harness.js'
import { testToken } from '../test/support/fixtures.js'

const { values: args } = parseArgs({
  options: {
    n: { type: 'string', default: '3000' },
    'executor-only': { type: 'boolean', default: false },
    'http-only': { type: 'boolean', default: false },
    'cpu-prof': { type: 'string' },
  },
})
const n = Number(args.n)
const h = await startHarness()
const { address: token } = await h.deployToken(10n ** 24n)
await h.transferToken(token, '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', 1n)
await h.mine()
const data = encodeFunctionData({ abi: testToken.abi, functionName: 'balanceOf', args: [h.alice.address] })
const request = { to: hexToBytes(token), data: hexToBytes(data) }

const profiler = args['cpu-prof'] ? new Session() : undefined
profiler?.connect()
await profiler?.post('Profiler.enable')

async function time(label: string, work: () => Promise<unknown>) {
  for (let i = 0; i < n / 5; i++) await work()
  await profiler?.post('Profiler.start')
  const cpu0 = process.cpuUsage()
  const t0 = performance.now()
  for (let i = 0; i < n; i++) await work()
  const wall = performance.now() - t0
  const cpu = process.cpuUsage(cpu0)
  const profile = await profiler?.post('Profiler.stop')
  if (profile)
    writeFileSync(
      `${args['cpu-prof']}.${label.split(' (')[0]!.replaceAll(' ', '-')}.cpuprofile`,
      JSON.stringify(profile.profile),
    )
  console.log(
    `${label}: ${((wall * 1000) / n).toFixed(0)} µs wall, ${((cpu.user + cpu.system) / n).toFixed(0)} µs CPU per call`,
  )
}

const latest = () => h.chain.store.latest()
// the same balanceOf with a different trailing word each time (the ABI decoder ignores it): the same state
// reads and EVM work as one call repeated, but no two calls are equal, so none answers from the call memo
const distinct = Array.from({ length: n + Math.ceil(n / 5) }, (_, i) => ({
  to: request.to,
  data: hexToBytes(`${data}${(i + 1).toString(16).padStart(64, '0')}`),
}))
let next = 0
if (!args['http-only']) {
  await time('executor.call latest, distinct calls (no memo)', async () =>
    h.chain.executor.call(latest(), distinct[next++]!),
  )
  await time('executor.call latest, one call repeated (memo)', async () => h.chain.executor.call(latest(), request))
  // as 16 clients send them: calls interleave at their state reads, each on its own EVM (CALL_EVMS_MAX_IDLE)
  const inFlight = Array.from({ length: 16 * (n + Math.ceil(n / 5)) }, (_, i) => ({
    to: request.to,
    data: hexToBytes(`${data}${(i + 1).toString(16).padStart(56, '0')}ff000000`),
  }))
  let batch = 0
  const sixteen = () =>
    Promise.all(inFlight.slice(16 * batch, 16 * ++batch).map((c) => h.chain.executor.call(latest(), c)))
  await time('executor.call latest, distinct calls 16 in flight (per 16 calls)', sixteen)
}
if (args['executor-only']) {
  await h.close()
  process.exit(0)
}
const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ to: token, data }, 'latest'] })
const post = (url: string, payload: string) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: payload }).then((r) => r.text())
await time('HTTP eth_call latest (client in-process)', () => post(h.service.url, body))
await time('HTTP eth_chainId (client in-process)', () =>
  post(h.service.url, '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}'),
)
await h.close()
