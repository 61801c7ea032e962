/**
 * Reads of state nobody asked for before at that root, as real traffic is (every user asks for their own
 * balance): an ERC-20 with `--holders` holders, then balanceOf of each holder once, balanceOf of as many
 * owners holding nothing, and eth_getBalance of as many addresses never used. No request repeats, so neither
 * our call memo nor any state cache answers it: each one walks the state trie. The same on anvil (its state
 * is flat in memory), and on a baseline checkout if given. Per case: server CPU µs per request (from /proc,
 * each server's idle CPU taken off; no req/s: autocannon ends a fixed amount on a whole second, see
 * transport-floor.ts). The warm row (one holder's balanceOf, calldata varied so the memo misses) is the same
 * EVM work on a slot already read. Rounds alternate the servers, with new addresses and the token written
 * again (a new storage root) before each; each server's best round is reported, the least disturbed on a
 * shared machine.
 *
 *   npx tsx bench/cold-reads.ts [--holders 3000] [--rounds 3] [--connections 16] [--baseline DIR]
 */
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { encodeFunctionData, type Hex } from 'viem'
import { testToken } from '../test/support/fixtures.js'
import { cpuMs, fixtures, idleCpuPerMs } from './read-cases.js'
import { devAccount, rpc, sleep, startAnvil, startOurs, type Target } from './lib.js'

const { values: args } = parseArgs({
  options: {
    holders: { type: 'string', default: '3000' },
    connections: { type: 'string', default: '16' },
    rounds: { type: 'string', default: '3' },
    baseline: { type: 'string' },
  },
})
const holders = Number(args.holders)
const deployer = devAccount(0)
/** Distinct addresses per use: holders, owners of nothing, unused accounts (none of them a dev account). */
const address = (range: number, i: number) => `0x${(range * 0x1000000 + i + 1).toString(16).padStart(40, '0')}` as Hex

/**
 * Sends 1 token to each of `to`, at most 60 transactions of one sender waiting at a time, and waits for a
 * block past the last, so `latest` holds them all.
 */
async function transfers(url: string, token: Hex, to: Hex[]) {
  const chainId = Number(await rpc(url, 'eth_chainId'))
  const gasPrice = BigInt(await rpc(url, 'eth_gasPrice'))
  let nonce = Number(await rpc(url, 'eth_getTransactionCount', [deployer.address, 'pending']))
  for (let i = 0; i < to.length; i += 60) {
    const batch = to.slice(i, i + 60)
    const hashes = await Promise.all(
      batch.map(async (holder) =>
        rpc<Hex>(url, 'eth_sendRawTransaction', [
          await deployer.signTransaction({
            chainId,
            type: 'eip1559',
            nonce: nonce++,
            to: token,
            data: encodeFunctionData({ abi: testToken.abi, functionName: 'transfer', args: [holder, 1n] }),
            gas: 100_000n,
            maxFeePerGas: gasPrice * 3n,
            maxPriorityFeePerGas: 1_000_000n,
          }),
        ]),
      ),
    )
    while (!(await rpc(url, 'eth_getTransactionReceipt', [hashes.at(-1)]))?.blockNumber) await sleep(50)
  }
  const mined = BigInt(await rpc(url, 'eth_blockNumber'))
  while (BigInt(await rpc(url, 'eth_blockNumber')) <= mined) await sleep(50)
}

const req = (method: string, params: unknown[]) => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params })
const balanceOf = (token: Hex, owner: Hex, extra = '') => ({
  to: token,
  data: `${encodeFunctionData({ abi: testToken.abi, functionName: 'balanceOf', args: [owner] })}${extra}`,
})

/** A round's requests: owners and addresses of their own, and the token written since the last round. */
function cases(token: Hex, round: number): Record<string, (i: number) => string> {
  return {
    'balanceOf, each holder once': (i) => req('eth_call', [balanceOf(token, address(1, i)), 'latest']),
    'balanceOf, owners of nothing': (i) => req('eth_call', [balanceOf(token, address(10 + round, i)), 'latest']),
    'eth_getBalance, unused addresses': (i) => req('eth_getBalance', [address(100 + round, i), 'latest']),
    'balanceOf, one holder (warm)': (i) =>
      req('eth_call', [balanceOf(token, address(1, 0), i.toString(16).padStart(64, '0')), 'latest']),
  }
}

/** Server CPU µs per request. */
async function measure(target: Target, body: (i: number) => string, idle = 0): Promise<number> {
  let next = 0
  const cpu0 = cpuMs(target.pid!)
  const t0 = performance.now()
  const result = await autocannon({
    url: target.url,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    connections: Number(args.connections),
    amount: holders,
    requests: [{ setupRequest: (request: { body?: string }) => ({ ...request, body: body(next++) }) }],
  })
  if (result.non2xx || result.errors)
    throw new Error(`${target.label}: ${result.non2xx} non-2xx, ${result.errors} errors`)
  return ((cpuMs(target.pid!) - cpu0 - idle * (performance.now() - t0)) * 1000) / holders
}

const targets: Target[] = [
  { ...(await startOurs()), label: 'ours' },
  ...(args.baseline ? [{ ...(await startOurs([], [], args.baseline)), label: 'before' }] : []),
  await startAnvil('1'),
]
try {
  const holderList = Array.from({ length: holders }, (_, i) => address(1, i))
  const tokens = await Promise.all(
    targets.map(async (t) => {
      const { token } = await fixtures(t.url)
      await transfers(t.url, token, holderList)
      return token
    }),
  )
  // the warm row's slot read once, and each server's JIT warmed on addresses no case uses
  for (const [k, t] of targets.entries()) {
    const warm = (i: number) => req('eth_call', [balanceOf(tokens[k]!, address(4, i)), 'latest'])
    await measure(t, warm)
  }
  const idle = await Promise.all(targets.map(idleCpuPerMs))
  const names = Object.keys(cases(tokens[0]!, 0))
  /** CPU per request by case, then by target: every round's. */
  const rounds = new Map(names.map((name) => [name, targets.map((): number[] => [])]))
  for (let r = 0; r < Number(args.rounds); r++) {
    // a new storage root for the token: every holder's slot is a read nobody made at that root
    if (r > 0) await Promise.all(targets.map((t, k) => transfers(t.url, tokens[k]!, [address(1, 0)])))
    for (const name of names)
      for (const [k, t] of targets.entries())
        rounds.get(name)![k]!.push(await measure(t, cases(tokens[k]!, r)[name]!, idle[k]))
  }
  console.log(
    `${holders} holders, ${holders} requests a case, ${args.connections} connections, best of ${args.rounds} rounds`,
  )
  console.log(`| case | ${targets.map((t) => `${t.label} CPU µs/req`).join(' | ')} | ours/anvil CPU |`)
  console.log(`|---|${targets.map(() => '---|').join('')}---|`)
  for (const [name, byTarget] of rounds) {
    const best = byTarget.map((all) => Math.min(...all))
    const ratio = (best[0]! / best.at(-1)!).toFixed(1)
    console.log(`| ${name} | ${best.map((c) => c.toFixed(0)).join(' | ')} | ${ratio}× |`)
  }
} finally {
  for (const t of targets) await t.stop()
}
