/**
 * eth_simulateV1's engine in process (execution/simulate/simulate.ts, no server): a block of 10 ERC-20
 * transfers (test/fixtures' TestToken, each call sending to a new holder) and a heavy loop (20 000 rounds of
 * a counter, ~0.5 Mgas), each simulated with the outermost frames on the interpreter
 * (patches/interpreted-frames.ts) and on @ethereumjs's runTx alone, alternating per round in one process:
 * CPU ms per simulation (process.cpuUsage; median and least over the rounds), with the load average.
 *
 *   npx tsx bench/simulate-calls.ts [--rounds 15] [--n 10]
 */
import { loadavg } from 'node:os'
import { parseArgs } from 'node:util'
import { encodeDeployData, encodeFunctionData, getContractAddress, type Hex } from 'viem'
import { createChain } from '../src/chain/create-chain.js'
import { defaultConfig } from '../src/config.js'
import type { SimulateBlockSpec } from '../src/domain/simulate.js'
import { simulate } from '../src/evm/execution/simulate/simulate.js'
import { interpreterStats } from '../src/evm/interpreter/stats.js'
import { installEvmPatches } from '../src/evm/patches/install.js'
import { isolatedStateAt } from '../src/evm/state-views.js'
import { testToken } from '../test/support/fixtures.js'
import { signTx } from '../test/support/sign-tx.js'

const { values: args } = parseArgs({
  options: { rounds: { type: 'string', default: '15' }, n: { type: 'string', default: '10' } },
})
const bytes = (hex: string) => Uint8Array.from(Buffer.from(hex.replace(/^0x/, ''), 'hex'))
const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}` as Hex
/** PUSH2 20000; JUMPDEST; PUSH1 1; SWAP1; SUB; DUP1; PUSH1 3; JUMPI; STOP. */
const LOOP = '614e205b600190038060035700'
const LOOP_AT = bytes('0x00000000000000000000000000000000001009e0')

await installEvmPatches()
const chain = await createChain(defaultConfig({ quiet: true }))
const deployer = chain.accounts[0].address
const deploy = encodeDeployData({ abi: testToken.abi, bytecode: testToken.bytecode, args: [10n ** 24n] })
await chain.sendRawTransaction(await signTx(chain, 0, { to: null, nonce: 0, gas: 3_000_000n, data: bytes(deploy) }))
await chain.mine()
const token = bytes(getContractAddress({ from: hex(deployer), nonce: 0n }))

let holder = 0
const transfers = (): SimulateBlockSpec[] => [
  {
    blockOverrides: {},
    calls: Array.from({ length: Number(args.n) }, () => {
      const to = `0x${(0xabc0000 + ++holder).toString(16).padStart(40, '0')}` as Hex
      const data = encodeFunctionData({ abi: testToken.abi, functionName: 'transfer', args: [to, 1n] })
      return { from: deployer, to: token, data: bytes(data) }
    }),
  },
]
const loop = (): SimulateBlockSpec[] => [
  {
    blockOverrides: {},
    stateOverrides: new Map([[hex(LOOP_AT), { code: bytes(LOOP) }]]),
    calls: [{ to: LOOP_AT, data: new Uint8Array() }],
  },
]

async function cpuOf(blocks: SimulateBlockSpec[], interpreter: boolean): Promise<number> {
  const base = chain.store.latest()
  const state = isolatedStateAt(chain.vm, base.header.stateRoot)
  const before = process.cpuUsage()
  const [block] = await simulate(
    { common: chain.vm.common, base, state, blockHashes: chain.vm.blockchain as never, interpreter },
    { blocks, validation: false, traceTransfers: false },
  )
  const used = process.cpuUsage(before)
  if (block!.calls.some((c) => c.status !== 1)) throw new Error('a simulated call failed')
  return (used.user + used.system) / 1000
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')
console.log(`load before ${load()}`)
for (const [name, blocks] of [
  [`${args.n} ERC-20 transfers`, transfers],
  ['a loop of 20 000 rounds', loop],
] as const) {
  const cpu = { runTx: [] as number[], interpreter: [] as number[] }
  const simulated = interpreterStats.simulated
  for (let round = 0; round < Number(args.rounds) + 2; round++) {
    // the first two rounds warm both up (JIT) and are not counted; the order alternates
    const order = round % 2 === 0 ? [false, true] : [true, false]
    for (const on of order) {
      const ms = await cpuOf(blocks(), on)
      if (round >= 2) cpu[on ? 'interpreter' : 'runTx'].push(ms)
    }
  }
  const fmt = (xs: number[]) => `median ${median(xs).toFixed(2)} ms, least ${Math.min(...xs).toFixed(2)} ms`
  console.log(`${name}:`)
  console.log(`  runTx alone:      ${fmt(cpu.runTx)}`)
  console.log(`  interpreter:      ${fmt(cpu.interpreter)}  (frames it ran: ${interpreterStats.simulated - simulated})`)
  console.log(`  runTx/interpreter (medians): ${(median(cpu.runTx) / median(cpu.interpreter)).toFixed(2)}x`)
}
console.log(`load after ${load()}`)
await chain.stop()
