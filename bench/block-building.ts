/**
 * What building a block costs the sequencer, in process: CPU and bytes allocated per block of an idle chain
 * (five flashblocks, the first with the L1-info deposit) and per block of ERC-20 transfers (TestToken's
 * `transfer` to a new holder each, from the ten dev accounts), the transactions signed and admitted before the
 * timed part: only building is measured. Bytes are heapUsed after a round less heapUsed after a full GC before
 * it, in a young generation large enough that no collection runs in between (a round with one is not counted),
 * so they do not move with the machine's load (a block with one is left out of the figure); CPU is the
 * process's (all threads) over the round.
 *
 *   node --expose-gc --min-semi-space-size=128 --max-semi-space-size=256 --import tsx bench/block-building.ts [--mode idle|erc20]
 *        [--rounds 5] [--blocks 40] [--txs 100] [--profile FILE]
 *
 * --profile FILE: one more block after the rounds, its building alone under the inspector's CPU profiler
 * (100 µs samples), written to FILE (bench/profile-top.ts reads it).
 *
 * Prints one JSON line. Beside a baseline: run this file from a checkout of it (`git archive`, node_modules linked)
 * and from this one in turns; PRECONF_EVM_INTERPRETER=0 builds the blocks on @ethereumjs alone.
 */
import { writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { PerformanceObserver } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import { encodeDeployData, encodeFunctionData } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { testToken } from '../test/support/fixtures.js'
import { createChain } from '../src/chain/create-chain.js'
import { defaultConfig } from '../src/config.js'
import { installEvmPatches } from '../src/evm/patches/install.js'
import { interpreterStats } from '../src/evm/interpreter/stats.js'

const { values: args } = parseArgs({
  options: {
    mode: { type: 'string', default: 'idle' },
    rounds: { type: 'string', default: '5' },
    blocks: { type: 'string', default: '40' },
    txs: { type: 'string', default: '100' },
    profile: { type: 'string' },
  },
})
const rounds = Number(args.rounds)
const blocks = Number(args.blocks)
const perBlock = args.mode === 'erc20' ? Number(args.txs) : 0
const gc = (globalThis as { gc?: () => void }).gc
if (!gc) throw new Error('run with node --expose-gc')

await installEvmPatches()
const chain = await createChain(defaultConfig({ quiet: true }))
const signers = chain.accounts.map((a) => privateKeyToAccount(bytesToHex(a.privateKey) as `0x${string}`))
const nonces = signers.map(() => 0)
const chainId = Number(chain.chainId)

async function sign(from: number, to: `0x${string}` | undefined, data: `0x${string}`, gas: bigint) {
  const raw = await signers[from].signTransaction({
    type: 'eip1559',
    chainId,
    nonce: nonces[from]++,
    to,
    data,
    gas,
    maxFeePerGas: 10n ** 10n,
    maxPriorityFeePerGas: 1n,
  })
  return hexToBytes(raw)
}

/** One block as the timers build it: five flashblocks, then sealed. */
async function block(): Promise<void> {
  for (let f = 0; f < 5; f++) await chain.buildNow()
  await chain.sealNow()
}

let token: `0x${string}` | undefined
if (perBlock > 0) {
  const supply = 10n ** 30n
  await chain.sendRawTransaction(
    await sign(0, undefined, encodeDeployData({ ...testToken, args: [supply] } as never), 2_000_000n),
  )
  const deployed = await chain.mine()
  token = bytesToHex(deployed.receipts.at(-1)!.contractAddress!) as `0x${string}`
  const transfer = (to: `0x${string}`, amount: bigint) =>
    encodeFunctionData({ abi: testToken.abi, functionName: 'transfer', args: [to, amount] })
  for (let s = 1; s < signers.length; s++)
    await chain.sendRawTransaction(await sign(0, token, transfer(signers[s].address, supply / 100n), 100_000n))
  await chain.mine()
}

let fresh = 0x10000
/** The next block's transactions, signed and admitted (not timed). */
async function admit(): Promise<void> {
  for (let i = 0; i < perBlock; i++) {
    const to = `0x${(fresh++).toString(16).padStart(40, '0')}` as const
    const data = encodeFunctionData({ abi: testToken.abi, functionName: 'transfer', args: [to, 1n] })
    await chain.sendRawTransaction(await sign(i % signers.length, token, data, 100_000n))
  }
}

/** When each collection started (performance.now()). */
const collections: number[] = []
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) collections.push(entry.startTime)
}).observe({ entryTypes: ['gc'] })

// a first round unmeasured: V8 compiles the building code
for (let b = 0; b < 10; b++) {
  await admit()
  await block()
}
const cpuUs: number[] = []
const bytes: number[] = []
let mined = 0
for (let r = 0; r < rounds; r++) {
  let cpu = 0
  let allocated = 0
  let clean = 0
  for (let b = 0; b < blocks; b++) {
    await admit()
    gc()
    const heap0 = process.memoryUsage().heapUsed
    const t0 = performance.now()
    const cpu0 = process.cpuUsage()
    await block()
    const c = process.cpuUsage(cpu0)
    const heap1 = process.memoryUsage().heapUsed
    const t1 = performance.now()
    // the observer's entries come in a later turn
    await new Promise((resolve) => setTimeout(resolve, 5))
    cpu += c.user + c.system
    if (collections.some((at) => at > t0 && at < t1)) continue
    allocated += heap1 - heap0
    clean++
  }
  mined += blocks * perBlock
  cpuUs.push(cpu / blocks)
  if (clean) bytes.push(allocated / clean)
}
if (args.profile) {
  await admit()
  const session = new Session()
  session.connect()
  await session.post('Profiler.enable')
  await session.post('Profiler.setSamplingInterval', { interval: 100 })
  await session.post('Profiler.start')
  await block()
  writeFileSync(args.profile, JSON.stringify((await session.post('Profiler.stop')).profile))
  session.disconnect()
}
const latest = chain.store.latest()
if (perBlock > 0 && latest.txs.length !== perBlock + 1)
  throw new Error(`the last block holds ${latest.txs.length} transactions, not ${perBlock + 1}`)
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
console.log(
  JSON.stringify({
    mode: args.mode,
    txsPerBlock: perBlock,
    blocksPerRound: blocks,
    cpuUsPerBlock: Math.round(median(cpuUs)),
    cpuUsPerBlockRounds: cpuUs.map(Math.round),
    allocatedKbPerBlock: bytes.length ? Math.round(median(bytes) / 1024) : null,
    roundsWithCleanBlocks: bytes.length,
    cpuUsPerTx: perBlock ? Math.round(median(cpuUs) / perBlock) : undefined,
    mined,
    interpreted: interpreterStats.built ?? 0,
    fallbacks: Object.fromEntries(interpreterStats.buildFallbacks ?? []),
  }),
)
await chain.stop()
