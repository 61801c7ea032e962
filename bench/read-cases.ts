/**
 * The read cases of the shared kit's rpc-bench (plus eth_call on `pending`) and the fixtures they need on a
 * fresh chain: a deployed ERC-20 and one transfer. Shared by read-path.ts and request-cpu.ts.
 */
import { readdirSync, readFileSync } from 'node:fs'
import autocannon from 'autocannon'
import { encodeDeployData, encodeFunctionData, type Hex, parseEther } from 'viem'
import { testToken } from '../test/support/fixtures.js'
import { devAccount, rpc, sleep, type Target } from './lib.js'

const deployer = devAccount(0)
const holder = devAccount(1).address

/** Deploys the token and makes one transfer (the receipt case's transaction). */
export async function fixtures(url: string) {
  const chainId = Number(await rpc(url, 'eth_chainId'))
  const gasPrice = BigInt(await rpc(url, 'eth_gasPrice'))
  let nonce = Number(await rpc(url, 'eth_getTransactionCount', [deployer.address, 'pending']))
  const send = async (to: Hex | undefined, data: Hex) => {
    const raw = await deployer.signTransaction({
      chainId,
      type: 'eip1559',
      nonce: nonce++,
      to,
      data,
      gas: 3_000_000n,
      maxFeePerGas: gasPrice * 3n,
      maxPriorityFeePerGas: 1_000_000n,
    })
    const hash = await rpc<Hex>(url, 'eth_sendRawTransaction', [raw])
    for (;;) {
      const receipt = await rpc(url, 'eth_getTransactionReceipt', [hash])
      // mined into a block `latest` already names (on /flashblocks a receipt comes at preconfirmation)
      if (receipt?.blockNumber && BigInt(await rpc(url, 'eth_blockNumber')) >= BigInt(receipt.blockNumber))
        return { hash, receipt }
      await sleep(50)
    }
  }
  const deploy = await send(
    undefined,
    encodeDeployData({ abi: testToken.abi, bytecode: testToken.bytecode, args: [parseEther('1000000')] }),
  )
  const token = deploy.receipt.contractAddress as Hex
  const transfer = await send(
    token,
    encodeFunctionData({ abi: testToken.abi, functionName: 'transfer', args: [holder, parseEther('1')] }),
  )
  return { token, txHash: transfer.hash }
}

export function cases(token: Hex, txHash: Hex): Record<string, unknown> {
  const addr = deployer.address
  const balanceOf = (owner: Hex) => ({
    to: token,
    data: encodeFunctionData({ abi: testToken.abi, functionName: 'balanceOf', args: [owner] }),
  })
  const req = (method: string, params: unknown[], id = 1) => ({ jsonrpc: '2.0', id, method, params })
  return {
    chainId: req('eth_chainId', []),
    blockNumber: req('eth_blockNumber', []),
    balanceLatest: req('eth_getBalance', [addr, 'latest']),
    balancePending: req('eth_getBalance', [addr, 'pending']),
    callLatest: req('eth_call', [balanceOf(holder), 'latest']),
    callPending: req('eth_call', [balanceOf(holder), 'pending']),
    // balanceOf with a different trailing word per request (see varied): no answer from the call memo
    callVaried: req('eth_call', [balanceOf(holder), 'latest']),
    // the shared kit's two cases with a different address in every request (see varied): no cache answers them
    callDistinct: req('eth_call', [balanceOf(holder), 'latest']),
    balanceDistinct: req('eth_getBalance', [holder, 'latest']),
    receipt: req('eth_getTransactionReceipt', [txHash]),
    batch10: [
      req('eth_chainId', [], 1),
      req('eth_blockNumber', [], 2),
      req('eth_getBalance', [addr, 'latest'], 3),
      req('eth_getBalance', [holder, 'latest'], 4),
      req('eth_getBalance', [addr, 'pending'], 5),
      req('eth_call', [balanceOf(holder), 'latest'], 6),
      req('eth_call', [balanceOf(addr), 'latest'], 7),
      req('eth_getTransactionReceipt', [txHash], 8),
      req('eth_getTransactionCount', [addr, 'latest'], 9),
      req('eth_gasPrice', [], 10),
    ],
  }
}

/** An address nobody used, different for every `i` (the shared kit's `distinctAddr`). */
const distinctAddress = (i: number) => `0xd15c${(distinctBase + i).toString(16).padStart(36, '0')}`
const distinctBase = Math.floor(Math.random() * 2 ** 40)

/**
 * The body of request `i` of a case: callVaried's calldata gets a 32-byte word appended that differs per
 * request (the ABI decoder ignores it), so every call runs the EVM as a distinct call would; callDistinct
 * and balanceDistinct name a new address each time, as the shared kit's cases of those names; others as given.
 */
export function varied(name: string, body: unknown): ((i: number) => string) | undefined {
  if (name === 'balanceDistinct') {
    const read = body as { params: [string, string] }
    return (i) => JSON.stringify({ ...read, params: [distinctAddress(i), read.params[1]] })
  }
  if (name !== 'callVaried' && name !== 'callDistinct') return undefined
  const call = body as { params: [{ data: string }, string] }
  return (i) => {
    const data =
      name === 'callVaried'
        ? `${call.params[0].data}${i.toString(16).padStart(64, '0')}`
        : `${call.params[0].data.slice(0, -40)}${distinctAddress(i).slice(2)}`
    return JSON.stringify({ ...call, params: [{ ...call.params[0], data }, call.params[1]] })
  }
}

/** A server's own CPU while nobody asks it anything (our chain builds flashblocks and blocks), ms per ms. */
export async function idleCpuPerMs(target: Target): Promise<number> {
  const cpu0 = cpuMs(target.pid!)
  const t0 = performance.now()
  await sleep(2000)
  return (cpuMs(target.pid!) - cpu0) / (performance.now() - t0)
}

/** utime + stime of a process (or, under /proc/PID/task/TID, of one thread) in ms (USER_HZ = 100). */
export function cpuMs(pid: number, stat = `/proc/${pid}/stat`): number {
  const text = readFileSync(stat, 'utf8')
  const f = text.slice(text.lastIndexOf(')') + 2).split(' ')
  return (Number(f[11]) + Number(f[12])) * 10
}

/**
 * A process's CPU in ms split between its main thread (JavaScript, and the GC's pauses) and the rest: V8's
 * helpers (concurrent marking, parallel scavenges, compilers) and libuv's pool. Node names them all "node".
 */
export function threadCpuMs(pid: number): { main: number; helpers: number } {
  let helpers = 0
  for (const tid of readdirSync(`/proc/${pid}/task`))
    if (Number(tid) !== pid) helpers += cpuMs(pid, `/proc/${pid}/task/${tid}/stat`)
  return { main: cpuMs(pid, `/proc/${pid}/task/${pid}/stat`), helpers }
}

let sent = 0

/**
 * A process's CPU in ns from the scheduler's own account (/proc/PID/task/TID/schedstat: run time in ns, where
 * stat counts 10 ms ticks): its main thread's and all its live threads' together.
 */
export function threadCpuNs(pid: number): { main: number; all: number } {
  const ns = (tid: string) => Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0])
  let all = 0
  for (const tid of readdirSync(`/proc/${pid}/task`)) all += ns(tid)
  return { main: ns(String(pid)), all }
}

/**
 * Server CPU (µs) per request of one case: `amount` requests back to back over `connections` keep-alive
 * connections, the distinct cases with a new address each time, less the idle chain's own CPU (`idle`, per ms).
 */
export async function cpuPerRequest(
  target: Target,
  name: string,
  body: unknown,
  { idle, amount, connections }: { idle: number; amount: number; connections: number },
): Promise<number> {
  const cpu0 = cpuMs(target.pid!)
  const t0 = performance.now()
  await requests(target, name, body, { amount, connections })
  return ((cpuMs(target.pid!) - cpu0 - idle * (performance.now() - t0)) * 1000) / amount
}

/** `amount` requests of one case back to back over `connections` keep-alive connections (see varied). */
export async function requests(
  target: Target,
  name: string,
  body: unknown,
  { amount, connections }: { amount: number; connections: number },
): Promise<void> {
  const vary = varied(name, body)
  await autocannon({
    ...(vary
      ? { requests: [{ setupRequest: (request: { body?: string }) => ({ ...request, body: vary(sent++) }) }] }
      : {}),
    url: target.url,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    connections,
    amount,
  })
}
