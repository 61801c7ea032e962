/**
 * CPU per heavy eth_call inside one process, no HTTP and no peer: the executor on the harness's chain running
 * heavy-call-gas.ts's calls (15_tstoreCannotBeDosd on its pre-state, the aggregate of 100 ERC-20 balanceOf,
 * the quote through 8 pools × 20 rounds) and callDistinct's balanceOf of a new holder each time, each with a
 * different gas limit or holder per call so no memo answers. For profiling the interpreter (heavy-call-gas.ts
 * gives the figures beside anvil); `--cpu-prof DIR` writes a .cpuprofile per case of its timed calls only.
 *
 *   npx tsx bench/interpreter-calls.ts [--n 20] [--only NAME[,NAME...]] [--cpu-prof DIR]
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { loadavg } from 'node:os'
import { parseArgs } from 'node:util'
import { brotliDecompressSync } from 'node:zlib'
import { encodeFunctionData, getContractAddress, hexToBytes, type Abi, type Hex } from 'viem'
import heavy from '../test/fixtures/HeavyCalls.json' with { type: 'json' }
import { testToken } from '../test/support/fixtures.js'
import { startHarness } from '../test/support/harness.js'
import type { StateTest } from '../test/support/state-tests/fixtures.js'
import type { CallRequest } from '../src/domain/call-request.js'

const { values: args } = parseArgs({
  options: {
    n: { type: 'string', default: '20' },
    only: { type: 'string' },
    'cpu-prof': { type: 'string' },
  },
})
const n = Number(args.n)
const h = await startHarness()
const heavyCalls = heavy.HeavyCalls as unknown as { abi: Abi; bytecode: Hex }
const tests = JSON.parse(
  brotliDecompressSync(readFileSync(new URL('fixtures/heavy-state-tests.json.br', import.meta.url))).toString(),
) as Record<string, StateTest>
const GAS = 10_000_000n
/** The state tests' sender (ethereum/tests' usual key). */
const SENDER = '0xa94f5374fce5edbc8e2a8697c15331677e6ebf0b'

/** 15_tstoreCannotBeDosd's pre-state, written with the dev node's anvil_set* methods. */
async function tstoreCase(): Promise<CallRequest> {
  const test = tests['15_tstoreCannotBeDosd']!
  const word = (v: string) => `0x${BigInt(v).toString(16).padStart(64, '0')}`
  for (const [address, account] of Object.entries(test.pre)) {
    await h.rpc('general', 'anvil_setCode', [address, account.code])
    await h.rpc('general', 'anvil_setBalance', [address, account.balance])
    for (const [slot, value] of Object.entries(account.storage))
      await h.rpc('general', 'anvil_setStorageAt', [address, word(slot), word(value)])
  }
  const { transaction: tx } = test
  return { from: hexToBytes(SENDER), to: hexToBytes(tx.to as Hex), data: hexToBytes(tx.data[0] as Hex) }
}

const { address: token } = await h.deployToken(10n ** 24n)
const nonce = await h.general.getTransactionCount({ address: h.alice.address, blockTag: 'pending' })
const calls = getContractAddress({ from: h.alice.address, nonce: BigInt(nonce) })
await h.wallet.sendTransaction({ data: heavyCalls.bytecode, gas: 6_000_000n, ...h.fees() })
await h.mine()
await h.wallet.sendTransaction({
  to: calls,
  data: encodeFunctionData({ abi: heavyCalls.abi, functionName: 'addPools', args: [8n, 7n] }),
  gas: 6_000_000n,
  ...h.fees(),
})
await h.mine()
const balanceOf = (holder: Hex) => encodeFunctionData({ abi: testToken.abi, functionName: 'balanceOf', args: [holder] })
const holders = Array.from({ length: 100 }, (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')}` as Hex)
const aggregate = encodeFunctionData({
  abi: heavyCalls.abi,
  functionName: 'aggregate',
  args: [holders.map((holder) => ({ target: token, callData: balanceOf(holder) }))],
})
const quote = encodeFunctionData({ abi: heavyCalls.abi, functionName: 'quote', args: [10n ** 20n, 20n] })
const tstore = await tstoreCase()
await h.mine()

const latest = () => h.chain.store.latest()
let seq = 0
/** The call with a gas limit no earlier call had (the call memo answers by request). */
const heavyCall = (request: CallRequest) => async () => {
  try {
    return await h.chain.executor.call(latest(), { ...request, gas: GAS - BigInt(seq++) })
  } catch {
    return undefined
  }
}
const cases: [string, () => Promise<unknown>, number][] = [
  ['tstoreCannotBeDosd', heavyCall(tstore), Math.max(2, Math.ceil(n / 5))],
  ['aggregate of 100 balanceOf', heavyCall({ to: hexToBytes(calls), data: hexToBytes(aggregate) }), n],
  ['quote, 8 pools × 20 rounds', heavyCall({ to: hexToBytes(calls), data: hexToBytes(quote) }), n],
  [
    'callDistinct (balanceOf of a new holder)',
    async () => h.chain.executor.call(latest(), distinct[seq++ % distinct.length]!),
    n * 100,
  ],
]
/** callDistinct's calls, made before the timing (the ABI encoder would be most of a call's CPU). */
const distinct: CallRequest[] = Array.from({ length: n * 200 }, (_, i) => ({
  to: hexToBytes(token),
  data: hexToBytes(balanceOf(`0x${(0x10000 + i).toString(16).padStart(40, '0')}`)),
}))

const perCall = (us: number) => (us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${us.toFixed(0)} µs`)
const profiler = args['cpu-prof'] ? new Session() : undefined
if (profiler) {
  mkdirSync(args['cpu-prof']!, { recursive: true })
  profiler.connect()
  await profiler.post('Profiler.enable')
  await profiler.post('Profiler.setSamplingInterval', { interval: 100 })
}
console.log(
  `load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ')}; PRECONF_EVM_INTERPRETER=${process.env.PRECONF_EVM_INTERPRETER ?? '(default)'}`,
)
/** The cases named by --only (parts of their labels, in that order), else all. */
const chosen = args.only
  ? args.only.split(',').flatMap((part) => cases.filter(([label]) => label.includes(part)))
  : cases
for (const [label, work, count] of chosen) {
  // the first two calls alone, as heavy-call-gas.ts --runs 2 times them: cold reads, code analysis, a JIT not warm
  await profiler?.post('Profiler.start')
  const first = process.cpuUsage()
  for (let i = 0; i < 2; i++) await work()
  const cold = process.cpuUsage(first)
  const coldProfile = await profiler?.post('Profiler.stop')
  if (coldProfile)
    writeFileSync(`${args['cpu-prof']}/${label.split(' ')[0]}.cold.cpuprofile`, JSON.stringify(coldProfile.profile))
  for (let i = 0; i < Math.ceil(count / 4); i++) await work()
  await profiler?.post('Profiler.start')
  const cpu0 = process.cpuUsage()
  const t0 = performance.now()
  for (let i = 0; i < count; i++) await work()
  const wall = performance.now() - t0
  const cpu = process.cpuUsage(cpu0)
  const profile = await profiler?.post('Profiler.stop')
  if (profile) writeFileSync(`${args['cpu-prof']}/${label.split(' ')[0]}.cpuprofile`, JSON.stringify(profile.profile))
  const us = (cpu.user + cpu.system) / count
  console.log(
    `${label}: ${(wall / count).toFixed(2)} ms wall, ${perCall(us)} CPU per call; the first two: ${perCall((cold.user + cold.system) / 2)} CPU per call`,
  )
}
await h.close()
process.exit(0)
