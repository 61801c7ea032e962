/**
 * `npm run bench:cluster`: read throughput through nginx (scripts/cluster/) with 1 and with 2 followers, and
 * what nginx adds per request (the same load on follower 1 directly). Reads: eth_getBalance on `pending` on
 * /flashblocks and eth_call (balanceOf of a token) on the general endpoint. The followers run without the
 * rate limit (one load generator is one client IP). Everything shares this machine's cores, so 2 followers
 * compete with nginx, the leader and autocannon: the note in the README projects what N machines give.
 */
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { createWalletClient, encodeDeployData, encodeFunctionData, http } from 'viem'
import { type Cluster, startCluster } from '../scripts/cluster/cluster.js'
import { preconfRpcChain } from '../src/client/chains.js'
import { testToken } from '../test/support/fixtures.js'
import { devAccount } from './lib.js'

const { values: args } = parseArgs({
  options: { seconds: { type: 'string', default: '5' }, connections: { type: 'string', default: '16' } },
})
const seconds = Number(args.seconds)

async function load(url: string, body: unknown): Promise<{ rps: number; p50: number; p99: number }> {
  const opts = {
    url,
    method: 'POST' as const,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    connections: Number(args.connections),
  }
  const check = await (await fetch(url, { method: 'POST', headers: opts.headers, body: opts.body })).text()
  if (check.includes('"error"')) throw new Error(`${url}: ${check.slice(0, 300)}`)
  await autocannon({ ...opts, duration: 1 })
  const result = await autocannon({ ...opts, duration: seconds })
  if (result.non2xx || result.errors) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`)
  return { rps: Math.round(result.requests.total / seconds), p50: result.latency.p50, p99: result.latency.p99 }
}

/** The reads, against a token deployed through the entry. */
async function reads(cluster: Cluster) {
  const account = devAccount(1)
  const chain = preconfRpcChain(cluster.origin)
  const wallet = createWalletClient({ chain, account, transport: http(`${cluster.origin}/flashblocks`) })
  const deployed = await wallet.sendTransactionSync({
    data: encodeDeployData({ abi: testToken.abi, bytecode: testToken.bytecode, args: [10n ** 24n] }),
    gas: 3_000_000n,
  })
  const token = deployed.contractAddress!
  const data = encodeFunctionData({ abi: testToken.abi, functionName: 'balanceOf', args: [account.address] })
  // sealed, so eth_call on `latest` sees the token on every follower
  await new Promise((resolve) => setTimeout(resolve, 2500))
  return {
    'eth_getBalance pending': { path: '/flashblocks', body: rpcBody('eth_getBalance', [account.address, 'pending']) },
    eth_call: { path: '/', body: rpcBody('eth_call', [{ to: token, data }, 'latest']) },
  }
}

const rpcBody = (method: string, params: unknown[]) => ({ jsonrpc: '2.0', id: 1, method, params })

/** Median round trip of `count` eth_chainId calls one after another (µs): the transport's own cost. */
async function roundTripUs(url: string, count = 400): Promise<number> {
  const body = JSON.stringify(rpcBody('eth_chainId', []))
  const times: number[] = []
  for (let i = 0; i < count; i++) {
    const started = process.hrtime.bigint()
    await (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).text()
    times.push(Number(process.hrtime.bigint() - started) / 1000)
  }
  return Math.round(times.sort((a, b) => a - b)[count >> 1]!)
}

const rows: string[] = ['| read | target | req/s | p50 ms | p99 ms |', '|---|---|---|---|---|']
const notes: string[] = []
for (const followers of [1, 2]) {
  const cluster = await startCluster({ followers, followerFlags: ['--rate-limit', '0'] })
  try {
    if (followers === 1) {
      const direct = await roundTripUs(`${cluster.followers[0]!.origin}/`)
      const via = await roundTripUs(`${cluster.origin}/`)
      notes.push(
        `eth_chainId round trip, one at a time (median of 400): direct ${direct} µs, through nginx ${via} µs: nginx adds ${via - direct} µs`,
      )
    }
    for (const [name, read] of Object.entries(await reads(cluster))) {
      const via = await load(`${cluster.origin}${read.path}`, read.body)
      rows.push(
        `| ${name} | nginx, ${followers} follower${followers > 1 ? 's' : ''} | ${via.rps} | ${via.p50} | ${via.p99} |`,
      )
      if (followers === 1) {
        const direct = await load(`${cluster.followers[0]!.origin}${read.path}`, read.body)
        rows.push(`| ${name} | follower 1 directly | ${direct.rps} | ${direct.p50} | ${direct.p99} |`)
      }
    }
  } finally {
    await cluster.stop()
  }
}
console.log([...rows, '', ...notes].join('\n'))
