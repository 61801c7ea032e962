/**
 * CPU per eth_call without a load generator competing for the cores: the executor alone and the full
 * HTTP path (one keep-alive connection, requests back to back), on the harness's service with TestToken.
 *
 *   npx tsx bench/call-cpu.ts [--n 3000]        (node --cpu-prof --import tsx bench/call-cpu.ts for a profile)
 */
import { parseArgs } from 'node:util'
import { encodeFunctionData, hexToBytes } from 'viem'
import { startHarness } from '../test/support/harness.js'
import { testToken } from '../test/support/fixtures.js'

const { values: args } = parseArgs({
  options: {
    n: { type: 'string', default: '3000' },
    'executor-only': { type: 'boolean', default: false },
    'http-only': { type: 'boolean', default: false },
  },
})
const n = Number(args.n)
const h = await startHarness()
const { address: token } = await h.deployToken(10n ** 24n)
await h.transferToken(token, '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', 1n)
await h.mine()
const data = encodeFunctionData({ abi: testToken.abi, functionName: 'balanceOf', args: [h.alice.address] })
const request = { to: hexToBytes(token), data: hexToBytes(data) }

async function time(label: string, work: () => Promise<unknown>) {
  for (let i = 0; i < n / 5; i++) await work()
  const cpu0 = process.cpuUsage()
  const t0 = performance.now()
  for (let i = 0; i < n; i++) await work()
  const wall = performance.now() - t0
  const cpu = process.cpuUsage(cpu0)
  console.log(
    `${label}: ${((wall * 1000) / n).toFixed(0)} µs wall, ${((cpu.user + cpu.system) / n).toFixed(0)} µs CPU per call`,
  )
}

const latest = () => h.chain.store.latest()
if (!args['http-only']) await time('executor.call latest', () => h.chain.executor.call(latest(), request))
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
