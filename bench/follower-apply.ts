/**
 * Follower re-execution cost: one flashblock of 100 ERC-20 transfers (10 senders, 100 fresh recipients)
 * built by an embedded leader on loopback, then re-executed on leader-backed state. Cold: a new per-block
 * snapshot each run (every account, code and slot comes from the upstream); warm: the block's snapshot
 * already holds them (later flashblocks of a block, pending reads); then warm with the transactions decoded
 * beforehand (forwarded through the follower, or decoded on arrival for early receipts). Prints wall-clock p50/p90, CPU time per
 * apply (process.cpuUsage, user + system, all threads: on a shared machine it moves far less than wall time;
 * cold runs include the embedded leader answering the upstream reads) and upstream requests. `--profile
 * FILE` writes a V8 CPU profile of the warm applies alone (no startup, no leader building), or of the cold
 * ones with --profile-phase cold, for DevTools or speedscope. `--baseline DIR`: then the warm apply of decoded
 * transactions by ours with its frames on the EVM interpreter, ours on @ethereumjs alone (evmInterpreter: false)
 * and DIR's checkout (its Reexecutor and UpstreamSnapshot, loaded beside ours), `--rounds` rounds alternating,
 * each variant's CPU per apply and per transaction. `--txs loops`: the flashblock's 100 transactions are calls
 * of a loop that spends 100 000 gas in its frame instead of ERC-20 transfers.
 *   npx tsx bench/follower-apply.ts [--runs 20] [--profile apply.cpuprofile [--profile-phase cold]] [--baseline DIR [--rounds 8]] [--txs loops]
 *
 * Internals on purpose: the leader is a public startService, but what is measured is one step inside a
 * follower, which no public surface isolates (through the service a flashblock's re-execution is interleaved
 * with the feed, the head follower and the pending store). So the bench drives that step's own parts: the
 * feed codec and decoder (src/feed/) to turn the leader's flashblock into the follower's input, the pool's
 * decodeTransaction for the pre-decoded runs, and the Reexecutor over an UpstreamSnapshot of an UpstreamClient
 * (src/follower/), the objects FollowerBackend wires in the same way.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { loadavg } from 'node:os'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import { encodeDeployData, encodeFunctionData, type Abi, type Hex } from 'viem'
import { signTx } from '../test/support/sign-tx.js'
import { decodeFrame } from '../src/feed/codec.js'
import { decodeFlashblock } from '../src/feed/decode.js'
import { encodeFlashblock } from '../src/feed/encode.js'
import type { FlashblocksPayload } from '../src/feed/wire.js'
import { Reexecutor } from '../src/follower/reexecute.js'
import { decodeTransaction } from '../src/chain/pool/admission.js'
import type { TxRecord } from '../src/domain/types.js'
import { isDeposit } from '../src/domain/deposit-transaction.js'
import { UpstreamSnapshot } from '../src/follower/upstream-snapshot.js'
import { startService } from '../src/service.js'
// the lead swaps this for src/follower's HTTP client
import { UpstreamClient } from '../src/follower/upstream-client.js'
import { deployCode } from '../test/support/frame-blocks.js'
import { LOOP } from '../test/support/frame-programs.js'
import { percentiles } from './lib.js'

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '20' },
    profile: { type: 'string' },
    'profile-phase': { type: 'string', default: 'warm' },
    baseline: { type: 'string' },
    rounds: { type: 'string', default: '8' },
    txs: { type: 'string', default: 'transfers' },
  },
})
const runs = Number(values.runs)
const { TestToken } = JSON.parse(readFileSync(new URL('../test/fixtures/TestToken.json', import.meta.url), 'utf8')) as {
  TestToken: { abi: Abi; bytecode: Hex }
}

const leader = await startService({
  port: 0,
  quiet: true,
  rateLimit: 0,
  blockTimeMs: 3_600_000,
  flashblockIntervalMs: 3_600_000,
})
const chain = leader.chain
const nonces = new Array(10).fill(0)
const send = async (from: number, fields: Omit<Parameters<typeof signTx>[2], 'nonce'>) =>
  chain.sendRawTransaction(await signTx(chain, from, { ...fields, nonce: nonces[from]++ }))
const transfer = (to: Uint8Array, amount: bigint) =>
  hexToBytes(
    encodeFunctionData({ abi: TestToken.abi, functionName: 'transfer', args: [bytesToHex(to) as Hex, amount] }),
  )

await chain.sealNow()
await send(0, {
  to: null,
  gas: 2_000_000n,
  data: hexToBytes(encodeDeployData({ abi: TestToken.abi, bytecode: TestToken.bytecode, args: [10n ** 9n] })),
})
const token = (await chain.mine()).receipts[0].contractAddress!
for (let i = 1; i < 10; i++)
  await send(0, { to: token, gas: 100_000n, data: transfer(chain.accounts[i].address, 10n ** 6n) })
await chain.mine()
// --txs loops: a program that loops until its gas is gone (frame-programs.ts LOOP), deployed by init code
// that returns it; each of the 100 calls spends 100 000 gas in its frame
const loop = values.txs === 'loops' ? await deploy(LOOP) : undefined
for (let i = 0; i < 100; i++) {
  const recipient = hexToBytes(`0x${(0xbeef0000 + i).toString(16).padStart(40, '0')}`)
  if (loop) await send(i % 10, { to: loop, gas: 121_000n })
  else await send(i % 10, { to: token, gas: 100_000n, data: transfer(recipient, 1n + BigInt(i)) })
}

async function deploy(runtime: string): Promise<Uint8Array> {
  await send(0, { to: null, gas: 200_000n, data: hexToBytes(deployCode(runtime)) })
  return (await chain.mine()).receipts.find((r) => r.contractAddress)!.contractAddress!
}
const fb = await chain.buildNow()
console.log(`the leader built it in ${fb.timing?.buildMs.toFixed(1)} ms`)
// index 0 opens with the L1-info deposit (OP Stack), then the 100 transfers
const transfers = fb.executed.txs.filter((t) => !isDeposit(t.tx)).length
if (transfers !== 100) throw new Error(`the leader put ${transfers} transfers in its flashblock, not 100`)
const payload = decodeFlashblock(decodeFrame(JSON.stringify(encodeFlashblock(fb))) as FlashblocksPayload)
const canonical = chain.store.height
const upstream = new UpstreamClient(leader.url)

async function applyOnce(
  snapshot: UpstreamSnapshot,
  txs?: readonly TxRecord[],
  make: (snapshot: UpstreamSnapshot) => Reexecutor = (s) =>
    new Reexecutor({ common: chain.common, upstream, snapshotFor: () => s }),
) {
  const follower = make(snapshot)
  const t0 = performance.now()
  const cpu0 = process.cpuUsage()
  const result = await follower.apply(payload, canonical, { txs })
  const cpu = process.cpuUsage(cpu0)
  const ms = performance.now() - t0
  if (result.kind !== 'applied' || bytesToHex(result.flashblock.diff.blockHash) !== bytesToHex(fb.diff.blockHash)) {
    throw new Error(
      `re-execution differs from the leader: ${JSON.stringify(result.kind === 'applied' ? follower.stats : result)}`,
    )
  }
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000, requests: result.upstreamRequests }
}

/** Profiles `phase` alone when --profile-phase names it (the profile goes to --profile). */
async function profiled(phase: 'cold' | 'warm', run: () => Promise<void>) {
  if (!values.profile || values['profile-phase'] !== phase) return run()
  const session = new Session()
  session.connect()
  await session.post('Profiler.enable')
  await session.post('Profiler.start')
  await run()
  writeFileSync(values.profile, JSON.stringify((await session.post('Profiler.stop')).profile))
  session.disconnect()
}

const cold: number[] = []
const coldCpu: number[] = []
const coldRequests: number[] = []
await profiled('cold', async () => {
  for (let i = 0; i < Math.max(5, runs / 4); i++) {
    const { ms, cpuMs, requests } = await applyOnce(new UpstreamSnapshot(upstream, canonical))
    cold.push(ms)
    coldCpu.push(cpuMs)
    coldRequests.push(requests)
  }
})
const shared = new UpstreamSnapshot(upstream, canonical)
await applyOnce(shared)
const warm: number[] = []
const warmCpu: number[] = []
await profiled('warm', async () => {
  for (let i = 0; i < runs; i++) {
    const { ms, cpuMs } = await applyOnce(shared)
    warm.push(ms)
    warmCpu.push(cpuMs)
  }
})
// the transactions decoded before the apply: forwarded through this follower, or decoded on arrival for
// the frame's early receipts (no sender recovery in the apply)
const decoded = payload.diff.transactions.map((raw) => decodeTransaction(raw, chain.common))
const known: number[] = []
const knownCpu: number[] = []
for (let i = 0; i < runs; i++) {
  const { ms, cpuMs } = await applyOnce(shared, decoded)
  known.push(ms)
  knownCpu.push(cpuMs)
}
const alternating = values.baseline ? await alternate(values.baseline, decoded) : undefined
await leader.close()

/**
 * The warm apply of decoded transactions by each variant, `--rounds` rounds, the order rotating each round:
 * CPU per apply, each variant on a snapshot of its own already filled.
 */
async function alternate(dir: string, txs: readonly TxRecord[]) {
  type Module = { Reexecutor: new (o: object) => Reexecutor }
  const { Reexecutor: Baseline } = (await import(resolve(dir, 'src/follower/reexecute.ts'))) as Module
  const { UpstreamSnapshot: BaselineSnapshot } = (await import(resolve(dir, 'src/follower/upstream-snapshot.ts'))) as {
    UpstreamSnapshot: new (u: unknown, n: bigint) => UpstreamSnapshot
  }
  // its own copy of the patches' module state (one process-wide hook is ours already: processWide false)
  const { installEvmPatches: installBaseline } = (await import(resolve(dir, 'src/evm/patches/install.ts'))) as {
    installEvmPatches: (o: { processWide: boolean }) => Promise<unknown>
  }
  await installBaseline({ processWide: false })
  // its decoder: what a record carries beside the transaction is its modules' to read
  const { decodeTransaction: decodeBaseline } = (await import(resolve(dir, 'src/chain/pool/admission.ts'))) as {
    decodeTransaction: typeof decodeTransaction
  }
  const variants = [
    { label: 'ours, interpreter', snapshot: new UpstreamSnapshot(upstream, canonical), evmInterpreter: true },
    { label: 'ours, @ethereumjs', snapshot: new UpstreamSnapshot(upstream, canonical), evmInterpreter: false },
    { label: 'baseline', snapshot: new BaselineSnapshot(upstream, canonical), baseline: true },
  ].map((v) => ({
    ...v,
    txs: v.baseline ? payload.diff.transactions.map((raw) => decodeBaseline(raw, chain.common)) : txs,
    cpu: [] as number[],
    make: (s: UpstreamSnapshot) =>
      v.baseline
        ? new Baseline({ common: chain.common, upstream, snapshotFor: () => s })
        : new Reexecutor({ common: chain.common, upstream, snapshotFor: () => s, evmInterpreter: v.evmInterpreter }),
  }))
  // each snapshot filled, and each variant's code warm, before the rounds
  for (const v of variants) for (let i = 0; i < 5; i++) await applyOnce(v.snapshot, v.txs, v.make)
  for (let round = 0; round < Number(values.rounds); round++) {
    for (let k = 0; k < variants.length; k++) {
      const v = variants[(round + k) % variants.length]
      for (let i = 0; i < runs; i++) v.cpu.push((await applyOnce(v.snapshot, v.txs, v.make)).cpuMs)
    }
  }
  return variants
}

const fmt = (v: number) => v.toFixed(1)
const c = percentiles(cold)
const w = percentiles(warm)
const cc = percentiles(coldCpu)
const wc = percentiles(warmCpu)
console.log(
  `one flashblock of 100 ${values.txs === 'loops' ? 'calls of a loop' : 'ERC-20 transfers'} (${fb.diff.gasUsed} gas) re-executed on a loopback upstream`,
)
console.log(
  `cold (fresh per-block snapshot), n=${cold.length}: p50 ${fmt(c.p50)} ms, p90 ${fmt(c.p90)} ms; CPU p50 ${fmt(cc.p50)} ms, p90 ${fmt(cc.p90)} ms (with the leader's answers); upstream requests ${coldRequests.join(', ')} (calls ${shared.stats.calls})`,
)
console.log(
  `warm (snapshot already filled), n=${warm.length}: p50 ${fmt(w.p50)} ms, p90 ${fmt(w.p90)} ms; CPU p50 ${fmt(wc.p50)} ms, p90 ${fmt(wc.p90)} ms; upstream requests 0`,
)
const k = percentiles(known)
const kc = percentiles(knownCpu)
console.log(
  `warm, transactions already decoded, n=${known.length}: p50 ${fmt(k.p50)} ms, p90 ${fmt(k.p90)} ms; CPU p50 ${fmt(kc.p50)} ms, p90 ${fmt(kc.p90)} ms`,
)
console.log(
  `load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
)
if (alternating) {
  console.log(
    `alternating (--baseline ${values.baseline}), warm, transactions decoded, ${values.rounds} rounds of ${runs} applies each:`,
  )
  for (const v of alternating) {
    const p = percentiles(v.cpu)
    console.log(
      `  ${v.label}: CPU per apply p50 ${fmt(p.p50)} ms, p90 ${fmt(p.p90)} ms; per transaction p50 ${((p.p50 * 1000) / transfers).toFixed(0)} µs (n=${v.cpu.length})`,
    )
  }
  console.log(
    `load average at the end ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  )
}
