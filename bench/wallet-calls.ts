/**
 * What a wallet asks before it sends, beside anvil: eth_estimateGas of an ETH transfer and of an ERC-20
 * transfer, each without and with the fee fields viem and ethers put in (maxFeePerGas, maxPriorityFeePerGas),
 * and eth_call of a transfer with value; each request to a recipient nobody asked about before (no memo
 * answers it). Server CPU per request (all threads, schedstat ns, less nothing: one request at a time, so
 * the figure carries each server's idle CPU over its own time), rounds alternating the servers, each one's
 * least of the rounds beside anvil's. Before the paying calls ran on the interpreter (call-payment.ts), an
 * ERC-20 transfer's estimate with fee fields cost ~16 ms here: every run of the search went through runTx.
 *
 *   npx tsx bench/wallet-calls.ts [--n 300] [--rounds 3] [--baseline DIR]
 *
 * `--baseline DIR`: another checkout's service (node_modules linked) as a third target in the same rounds.
 */
import { loadavg } from 'node:os'
import { parseArgs } from 'node:util'
import { encodeFunctionData, type Hex } from 'viem'
import { testToken } from '../test/support/fixtures.js'
import { deployContracts, deployer, threadsCpuMs } from './heavy-setup.js'
import { rpc, startAnvil, startOurs, type Target } from './lib.js'

const { values: args } = parseArgs({
  options: {
    n: { type: 'string', default: '300' },
    rounds: { type: 'string', default: '3' },
    baseline: { type: 'string' },
  },
})
const N = Number(args.n)

const ours = await startOurs()
const anvil = await startAnvil('1')
const baseline = args.baseline ? { ...(await startOurs([], [], args.baseline)), label: 'baseline' } : undefined
const targets = baseline ? [ours, baseline, anvil] : [ours, anvil]
try {
  const tokens = new Map<Target, Hex>()
  for (const target of targets) tokens.set(target, (await deployContracts(target.url, 10_000_000)).token)
  const { baseFeePerGas } = await rpc<{ baseFeePerGas: Hex }>(ours.url, 'eth_getBlockByNumber', ['latest', false])
  const fees = { maxFeePerGas: `0x${(BigInt(baseFeePerGas) * 2n + 1n).toString(16)}`, maxPriorityFeePerGas: '0x1' }
  const from = deployer.address
  let fresh = 0
  const recipient = () => `0x${(0x100000 + fresh++).toString(16).padStart(40, '0')}` as Hex
  const transfer = () => encodeFunctionData({ abi: testToken.abi, functionName: 'transfer', args: [recipient(), 1n] })
  const cases: [string, string, (token: Hex) => unknown[]][] = [
    ['estimate, ETH transfer', 'eth_estimateGas', () => [{ from, to: recipient(), value: '0x1' }]],
    ['estimate, ETH transfer + fees', 'eth_estimateGas', () => [{ from, to: recipient(), value: '0x1', ...fees }]],
    ['estimate, ERC-20 transfer', 'eth_estimateGas', (to) => [{ from, to, data: transfer() }]],
    ['estimate, ERC-20 transfer + fees', 'eth_estimateGas', (to) => [{ from, to, data: transfer(), ...fees }]],
    ['call, ETH transfer', 'eth_call', () => [{ from, to: recipient(), value: '0x1' }, 'latest']],
  ]
  const best = new Map<string, number>()
  for (let round = 0; round < Number(args.rounds); round++)
    for (const target of round % 2 ? [...targets].reverse() : targets)
      for (const [name, method, params] of cases) {
        const token = tokens.get(target)!
        for (let i = 0; i < 30; i++) await rpc(target.url, method, params(token))
        const cpu0 = threadsCpuMs(target.pid!)
        for (let i = 0; i < N; i++) await rpc(target.url, method, params(token))
        const us = ((threadsCpuMs(target.pid!) - cpu0) / N) * 1000
        const key = `${target.label}|${name}`
        best.set(key, Math.min(best.get(key) ?? Number.POSITIVE_INFINITY, us))
      }
  const [a, b] = loadavg()
  console.log(
    `server CPU µs per request, least of ${args.rounds} rounds of ${N}; load ${a!.toFixed(1)} / ${b!.toFixed(1)}`,
  )
  const columns = targets.map((t) => (t === ours ? 'ours' : t.label))
  console.log(`| request | ${columns.join(' | ')} | ours / anvil |\n|---|${targets.map(() => '---|').join('')}---|`)
  for (const [name] of cases) {
    const us = targets.map((t) => best.get(`${t.label}|${name}`)!)
    const ratio = best.get(`${ours.label}|${name}`)! / best.get(`${anvil.label}|${name}`)!
    console.log(`| ${name} | ${us.map((u) => u.toFixed(0)).join(' | ')} | ${ratio.toFixed(2)}× |`)
  }
} finally {
  for (const target of targets) await target.stop()
}
