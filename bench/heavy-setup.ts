/**
 * The heavy calls of heavy-call-gas.ts and cold-calls.ts, set up on a node: ethereumjs/tests' heavy state
 * tests (bench/fixtures/heavy-state-tests.json.br) with their pre-state written by the anvil_set* (or
 * hardhat_set*) methods and their transactions as calls without value, and the two user calls of
 * test/fixtures/HeavyCalls.sol (an aggregate of 100 ERC-20 balanceOf, a quote through 8 pools × 20 rounds of
 * 512-bit mulDiv) on contracts deployed by the dev account.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { brotliDecompressSync } from 'node:zlib'
import { encodeDeployData, encodeFunctionData, getContractAddress, type Abi, type Hex } from 'viem'
import heavy from '../test/fixtures/HeavyCalls.json' with { type: 'json' }
import { testToken } from '../test/support/fixtures.js'
import type { StateTest } from '../test/support/state-tests/fixtures.js'
import { devAccount, rpc, sleep } from './lib.js'

/** The dev account that deploys the contracts and holds the token. */
export const deployer = devAccount(0)
const heavyCalls = heavy.HeavyCalls as unknown as { abi: Abi; bytecode: Hex }
export const heavyStateTests = JSON.parse(
  brotliDecompressSync(readFileSync(new URL('fixtures/heavy-state-tests.json.br', import.meta.url))).toString(),
) as Record<string, StateTest>
/** The state tests' sender (ethereum/tests' usual key). */
const SENDER = '0xa94f5374fce5edbc8e2a8697c15331677e6ebf0b'

export interface CallCase {
  name: string
  request: { from?: string; to: string; data: string; gas: number }
}

async function send(url: string, nonce: number, to: Hex | null, data: Hex): Promise<void> {
  const gasPrice = BigInt(await rpc(url, 'eth_gasPrice'))
  const chainId = Number(await rpc(url, 'eth_chainId'))
  const raw = await deployer.signTransaction({ chainId, nonce, to, data, gas: 6_000_000n, gasPrice: gasPrice * 2n })
  const hash = await rpc(url, 'eth_sendRawTransaction', [raw])
  while (!(await rpc(url, 'eth_getTransactionReceipt', [hash]))) await sleep(50)
}

/**
 * Writes `test`'s pre-state on `url` with `prefix`_set* (the tests share addresses: each is written just
 * before its calls run).
 */
export async function writePreState(
  url: string,
  test: StateTest,
  prefix: 'anvil' | 'hardhat' = 'anvil',
): Promise<void> {
  const word = (v: string) => `0x${BigInt(v).toString(16).padStart(64, '0')}`
  const set = (what: string) => `${prefix}_set${what}`
  for (const [address, account] of Object.entries(test.pre)) {
    await rpc(url, set('Code'), [address, account.code])
    await rpc(url, set('Balance'), [address, account.balance])
    await rpc(url, set('Nonce'), [address, account.nonce])
    for (const [slot, value] of Object.entries(account.storage))
      await rpc(url, set('StorageAt'), [address, word(slot), word(value)])
  }
  const [address, account] = Object.entries(test.pre).find(([, a]) => a.code !== '0x')!
  const code = account.code.toLowerCase()
  while (((await rpc(url, 'eth_getCode', [address, 'latest'])) as string).toLowerCase() !== code) await sleep(50)
}

/**
 * Waits until `latest` holds what was just written: the contracts' code and the deployer's `nonce`. A receipt
 * can come from a flashblock before its block is sealed, and a call at `latest` before then ran against no
 * code at all: ~1 ms of ours' aggregate that was the request path alone, then 3.5-7 once the block was sealed
 * (bench/call-series.ts, round 3 session 9).
 */
async function untilLatestHolds(url: string, contracts: Hex[], nonce: number): Promise<void> {
  for (;;) {
    const codes = await Promise.all(contracts.map((c) => rpc(url, 'eth_getCode', [c, 'latest'])))
    const sent = Number(await rpc(url, 'eth_getTransactionCount', [deployer.address, 'latest']))
    if (codes.every((code) => code !== '0x') && sent >= nonce) return
    await sleep(50)
  }
}

/**
 * `test`'s transactions as calls of at most `gasCap` gas, without their value (shiftCombinations carries 1
 * wei: calls with value take runTx's path on ours).
 */
export function stateTestCalls(name: string, test: StateTest, gasCap: number): CallCase[] {
  return test.post.map((post) => {
    const { data, gas } = post.indexes
    const label = test.post.length > 1 ? `${name} d${data}` : name
    const limit = Math.min(Number(BigInt(test.transaction.gasLimit[gas]!)), gasCap)
    return {
      name: label,
      request: { from: SENDER, to: test.transaction.to, data: test.transaction.data[data]!, gas: limit },
    }
  })
}

/** The token, the aggregator and its pools on `url`; the two calls, of `gas` each, and the token's address. */
export async function deployContracts(url: string, gas: number): Promise<{ calls: CallCase[]; token: Hex }> {
  const nonce = Number(await rpc(url, 'eth_getTransactionCount', [deployer.address, 'pending']))
  const at = (n: number) => getContractAddress({ from: deployer.address, nonce: BigInt(n) })
  await send(
    url,
    nonce,
    null,
    encodeDeployData({ abi: testToken.abi, bytecode: testToken.bytecode, args: [10n ** 24n] }),
  )
  await send(url, nonce + 1, null, heavyCalls.bytecode)
  const [token, calls] = [at(nonce), at(nonce + 1)]
  await send(
    url,
    nonce + 2,
    calls,
    encodeFunctionData({ abi: heavyCalls.abi, functionName: 'addPools', args: [8n, 7n] }),
  )
  await untilLatestHolds(url, [token, calls], nonce + 3)
  const holders = Array.from({ length: 100 }, (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')}` as Hex)
  const balanceOf = (h: Hex) => encodeFunctionData({ abi: testToken.abi, functionName: 'balanceOf', args: [h] })
  const aggregate = encodeFunctionData({
    abi: heavyCalls.abi,
    functionName: 'aggregate',
    args: [holders.map((h) => ({ target: token, callData: balanceOf(h) }))],
  })
  const quote = encodeFunctionData({ abi: heavyCalls.abi, functionName: 'quote', args: [10n ** 20n, 20n] })
  return {
    calls: [
      { name: 'aggregate of 100 balanceOf', request: { to: calls, data: aggregate, gas } },
      { name: 'quote, 8 pools × 20 rounds', request: { to: calls, data: quote, gas } },
    ],
    token,
  }
}

export const hexGas = (gas: number) => `0x${gas.toString(16)}`

/**
 * The CPU time of every thread of process `pid` so far (of thread `only` alone if given), in ms with µs precision (/proc's schedstat counts
 * nanoseconds; /proc/<pid>/stat's utime and stime are 10 ms ticks, coarser than a heavy call).
 */
export function threadsCpuMs(pid: number, only?: number): number {
  let ns = 0
  for (const task of only === undefined ? readdirSync(`/proc/${pid}/task`) : [String(only)]) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0])
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return ns / 1e6
}

/** A server's own CPU while nobody asks it anything (our chain builds flashblocks and blocks), ms per ms. */
export async function idleThreadsCpuPerMs(pid: number, ms = 2000): Promise<number> {
  const cpu0 = threadsCpuMs(pid)
  const t0 = performance.now()
  await sleep(ms)
  return (threadsCpuMs(pid) - cpu0) / (performance.now() - t0)
}
