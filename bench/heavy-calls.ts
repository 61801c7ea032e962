/**
 * What heavy eth_calls do to everyone else. `--heavy` clients send eth_calls to a contract that loops until
 * its gas is gone, back to back (each with its own calldata, so no memo shares them), while a prober sends
 * eth_blockNumber every 10 ms and, on ours, a client of the raw feed notes when each flashblock arrives.
 * Prints the prober's latency, the heavy calls answered, and the longest gap between flashblocks, on ours
 * (and a baseline checkout) and anvil `--block-time 1`.
 *
 *   npx tsx bench/heavy-calls.ts [--seconds 10] [--heavy 2] [--baseline DIR]
 */
import { parseArgs } from 'node:util'
import { getContractAddress, type Hex } from 'viem'
import WebSocket from 'ws'
import { devAccount, percentiles, rpc, sleep, startAnvil, startOurs, type Target } from './lib.js'

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    heavy: { type: 'string', default: '2' },
    baseline: { type: 'string' },
  },
})
const deployer = devAccount(0)
// runtime JUMPDEST PUSH1 0 JUMP, returned by PUSH4 it, PUSH1 0, MSTORE, PUSH1 4, PUSH1 28, RETURN
const INIT = '0x635b6000566000526004601cf3'

async function deployLoop(url: string): Promise<Hex> {
  const nonce = Number(await rpc(url, 'eth_getTransactionCount', [deployer.address, 'pending']))
  const gasPrice = BigInt(await rpc(url, 'eth_gasPrice'))
  const chainId = Number(await rpc(url, 'eth_chainId'))
  const raw = await deployer.signTransaction({ chainId, nonce, data: INIT, gas: 100_000n, gasPrice: gasPrice * 2n })
  await rpc(url, 'eth_sendRawTransaction', [raw])
  const loop = getContractAddress({ from: deployer.address, nonce: BigInt(nonce) })
  while ((await rpc(url, 'eth_getCode', [loop, 'latest'])) === '0x') await sleep(50)
  return loop
}

async function measure(target: Target) {
  const loop = await deployLoop(target.url)
  const until = performance.now() + Number(args.seconds) * 1000
  let answered = 0
  let sent = 0
  const heavy = Array.from({ length: Number(args.heavy) }, async () => {
    while (performance.now() < until) {
      const data = `0x${(sent++).toString(16).padStart(8, '0')}`
      await fetch(target.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ to: loop, data }, 'latest'] }),
      }).then((r) => r.text())
      answered++
    }
  })
  const arrivals: number[] = []
  const feed = target.feedUrl ? new WebSocket(target.feedUrl) : undefined
  feed?.on('message', () => arrivals.push(performance.now()))
  const latencies: number[] = []
  while (performance.now() < until) {
    const t0 = performance.now()
    await rpc(target.url, 'eth_blockNumber')
    latencies.push(performance.now() - t0)
    await sleep(10)
  }
  await Promise.all(heavy)
  feed?.close()
  const gaps = arrivals.slice(1).map((t, i) => t - arrivals[i]!)
  return { probe: percentiles(latencies), answered, gaps: gaps.length ? percentiles(gaps) : undefined }
}

const targets: Target[] = [
  { ...(await startOurs()), label: 'ours' },
  ...(args.baseline ? [{ ...(await startOurs([], [], args.baseline)), label: 'before' }] : []),
  await startAnvil('1'),
]
try {
  console.log(`${args.heavy} clients sending looping eth_calls back to back for ${args.seconds} s`)
  console.log('| server | eth_blockNumber p50 / p99 / max ms | looping calls answered | flashblock gap p50 / max ms |')
  console.log('|---|---|---|---|')
  for (const target of targets) {
    const { probe, answered, gaps } = await measure(target)
    const gap = gaps ? `${gaps.p50} / ${gaps.max}` : 'no feed'
    console.log(`| ${target.label} | ${probe.p50} / ${probe.p99} / ${probe.max} | ${answered} | ${gap} |`)
  }
} finally {
  for (const target of targets) await target.stop()
}
