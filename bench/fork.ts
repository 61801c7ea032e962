/**
 * Fork mode beside `anvil --fork-url`, on the same upstream in one run. The upstream is anvil with an
 * ERC-20 deployed and `--holders` holders; each fork reaches it through its own counting HTTP proxy, so the
 * upstream requests (HTTP requests, and JSON-RPC calls inside their batches) are each fork's own. Per fork:
 * time from start to the first answer (ours as the CLI, and in process once modules are loaded; anvil spawned),
 * the first eth_call balanceOf (cold: the token's account, code and slot all come from the upstream), then
 * balanceOf of each other holder once (a cold slot of a warm contract), then one balanceOf repeated. anvil
 * runs with --no-storage-caching, so nothing comes from its disk cache of an earlier run.
 *
 *   npx tsx bench/fork.ts [--holders 50] [--repeats 500]
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { parseArgs } from 'node:util'
import { encodeDeployData, encodeFunctionData, type Hex } from 'viem'
import { startService } from '../src/service.js'
import { testToken } from '../test/support/fixtures.js'
import { devAccount, freePort, MNEMONIC, percentiles, rpc, startOurs } from './lib.js'

const { values: args } = parseArgs({
  options: { holders: { type: 'string', default: '50' }, repeats: { type: 'string', default: '500' } },
})
const holders = Number(args.holders)
const repeats = Number(args.repeats)
const ANVIL = new URL('../node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil', import.meta.url).pathname
const holder = (i: number) => `0x${(0xf0000000 + i).toString(16).padStart(40, '0')}` as Hex
const balanceOf = (who: Hex) => encodeFunctionData({ abi: testToken.abi, functionName: 'balanceOf', args: [who] })

/** An HTTP proxy that counts what goes through it. */
async function countingProxy(target: string) {
  const counts = { requests: 0, calls: 0 }
  const to = new URL(target)
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      counts.requests++
      const parsed = JSON.parse(body.toString())
      counts.calls += Array.isArray(parsed) ? parsed.length : 1
      const out = request(
        {
          host: to.hostname,
          port: to.port,
          method: 'POST',
          path: '/',
          headers: { 'content-type': 'application/json' },
        },
        (reply) => {
          res.writeHead(reply.statusCode ?? 502, { 'content-type': 'application/json' })
          reply.pipe(res)
        },
      )
      out.end(body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { url, counts, close: () => server.close() }
}

async function firstAnswer(url: string, started: number, child?: ChildProcess): Promise<number> {
  for (;;) {
    if (child && child.exitCode !== null) throw new Error(`exited with ${child.exitCode}`)
    try {
      await rpc(url, 'eth_chainId')
      return performance.now() - started
    } catch {
      await new Promise((r) => setTimeout(r, 5))
    }
  }
}

/** The upstream: anvil with the token deployed and 1 token sent to each holder. */
async function upstream(): Promise<{ url: string; token: Hex; stop(): void }> {
  const port = await freePort()
  const child = spawn(ANVIL, ['--port', String(port), '--chain-id', '196', '--mnemonic', MNEMONIC, '--silent'], {
    stdio: 'ignore',
  })
  const url = `http://127.0.0.1:${port}`
  await firstAnswer(url, 0, child)
  const deployer = devAccount(0)
  const send = async (nonce: number, fields: { to?: Hex; data: Hex }) =>
    rpc<Hex>(url, 'eth_sendRawTransaction', [
      await deployer.signTransaction({
        chainId: 196,
        nonce,
        gas: 3_000_000n,
        maxFeePerGas: 10n ** 11n,
        maxPriorityFeePerGas: 1n,
        ...fields,
      }),
    ])
  const deploy = await send(0, {
    data: encodeDeployData({ abi: testToken.abi, bytecode: testToken.bytecode, args: [10n ** 24n] }),
  })
  const token = (await rpc<{ contractAddress: Hex }>(url, 'eth_getTransactionReceipt', [deploy])).contractAddress
  for (let i = 0; i < holders; i++) {
    const data = encodeFunctionData({ abi: testToken.abi, functionName: 'transfer', args: [holder(i), 1n] })
    await send(i + 1, { to: token, data })
  }
  return { url, token, stop: () => child.kill() }
}

async function timed(url: string, token: Hex, who: Hex): Promise<number> {
  const t = performance.now()
  const out = await rpc<Hex>(url, 'eth_call', [{ to: token, data: balanceOf(who) }, 'latest'])
  if (BigInt(out) !== 1n) throw new Error(`balanceOf(${who}) = ${out} on ${url}`)
  return performance.now() - t
}

type Row = {
  label: string
  start: number
  startCalls: string
  cold: number
  coldCalls: number
  coldRequests: number
  slot: number[]
  slotCalls: number
  repeat: number[]
}

async function measure(
  label: string,
  up: { url: string; token: Hex },
  start: (proxy: string) => Promise<{ url: string; ms: number; stop(): Promise<void> | void }>,
): Promise<Row> {
  const proxy = await countingProxy(up.url)
  const fork = await start(proxy.url)
  const before = { ...proxy.counts }
  const startCalls = `${before.requests} / ${before.calls}`
  const cold = await timed(fork.url, up.token, holder(0))
  const coldRequests = proxy.counts.requests - before.requests
  const coldCalls = proxy.counts.calls - before.calls
  const slotBefore = proxy.counts.calls
  const slot: number[] = []
  for (let i = 1; i < holders; i++) slot.push(await timed(fork.url, up.token, holder(i)))
  const slotCalls = (proxy.counts.calls - slotBefore) / Math.max(1, holders - 1)
  const repeat: number[] = []
  for (let i = 0; i < repeats; i++) repeat.push(await timed(fork.url, up.token, holder(0)))
  await fork.stop()
  proxy.close()
  return { label, start: fork.ms, startCalls, cold, coldCalls, coldRequests, slot, slotCalls, repeat }
}

const up = await upstream()
// modules loaded and JIT warm for the in-process start (the CLI row pays its own start-up)
await (await startService({ port: 0, quiet: true, rateLimit: 0 })).close()
const rows: Row[] = []
rows.push(
  await measure('preconf-rpc --fork-url (CLI: node + tsx)', up, async (proxy) => {
    const t = performance.now()
    const ours = await startOurs(['--fork-url', proxy])
    return { url: ours.url, ms: await firstAnswer(ours.url, t), stop: () => ours.stop() }
  }),
)
rows.push(
  await measure('preconf-rpc --fork-url (in process, warm)', up, async (proxy) => {
    const t = performance.now()
    const service = await startService({ port: 0, quiet: true, rateLimit: 0, forkUrl: proxy })
    const ms = await firstAnswer(service.url, t)
    return { url: service.url, ms, stop: () => service.close() }
  }),
)
rows.push(
  await measure('anvil --fork-url', up, async (proxy) => {
    const port = await freePort()
    const t = performance.now()
    const child = spawn(ANVIL, ['--port', String(port), '--fork-url', proxy, '--no-storage-caching', '--silent'], {
      stdio: 'ignore',
    })
    const url = `http://127.0.0.1:${port}`
    const ms = await firstAnswer(url, t, child)
    return { url, ms, stop: () => void child.kill() }
  }),
)
up.stop()

const f = (n: number) => n.toFixed(2)
console.log(`upstream: anvil, ERC-20 with ${holders} holders; eth_call balanceOf at latest; ms`)
console.log(
  '| fork | first answer | upstream requests / calls at start | cold call | upstream HTTP requests / calls, cold call | cold slot p50 / p99 | upstream calls per cold slot | repeated p50 / p99 |',
)
console.log('|---|---|---|---|---|---|---|---|')
for (const r of rows) {
  const s = percentiles(r.slot)
  const p = percentiles(r.repeat)
  console.log(
    `| ${r.label} | ${r.start.toFixed(0)} | ${r.startCalls} | ${f(r.cold)} | ${r.coldRequests} / ${r.coldCalls} | ${f(s.p50)} / ${f(s.p99)} | ${r.slotCalls.toFixed(1)} | ${f(p.p50)} / ${f(p.p99)} |`,
  )
}
