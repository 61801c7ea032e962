/**
 * Follower re-execution cost: one flashblock of 100 ERC-20 transfers (10 senders, 100 fresh recipients)
 * built by an embedded leader on loopback, then re-executed on leader-backed state. Cold: a new per-block
 * snapshot each run (every account, code and slot comes from the upstream); warm: the block's snapshot
 * already holds them (later flashblocks of a block, pending reads). Prints p50/p90 and upstream requests.
 *   npx tsx bench/follower-apply.ts [--runs 20]
 */
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import { encodeDeployData, encodeFunctionData, type Abi, type Hex } from 'viem'
import { signTx } from '../test/support/sign-tx.js'
import { decodeFrame } from '../src/feed/codec.js'
import { decodeFlashblock } from '../src/feed/decode.js'
import { encodeFlashblock } from '../src/feed/encode.js'
import type { FlashblocksPayload } from '../src/feed/wire.js'
import { Reexecutor } from '../src/follower/reexecute.js'
import { isDeposit } from '../src/opstack/deposit-transaction.js'
import { UpstreamSnapshot } from '../src/follower/upstream-snapshot.js'
import { startService } from '../src/service.js'
// the lead swaps this for src/follower's HTTP client
import { UpstreamClient } from '../src/follower/upstream-client.js'
import { percentiles } from './lib.js'

const { values } = parseArgs({ options: { runs: { type: 'string', default: '20' } } })
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
for (let i = 0; i < 100; i++) {
  const recipient = hexToBytes(`0x${(0xbeef0000 + i).toString(16).padStart(40, '0')}`)
  await send(i % 10, { to: token, gas: 100_000n, data: transfer(recipient, 1n + BigInt(i)) })
}
const fb = await chain.buildNow()
console.log(`the leader built it in ${fb.timing?.buildMs.toFixed(1)} ms`)
// index 0 opens with the L1-info deposit (OP Stack), then the 100 transfers
const transfers = fb.executed.txs.filter((t) => !isDeposit(t.tx)).length
if (transfers !== 100) throw new Error(`the leader put ${transfers} transfers in its flashblock, not 100`)
const payload = decodeFlashblock(decodeFrame(JSON.stringify(encodeFlashblock(fb))) as FlashblocksPayload)
const canonical = chain.store.height
const upstream = new UpstreamClient(leader.url)

async function applyOnce(snapshot: UpstreamSnapshot) {
  const follower = new Reexecutor({ common: chain.common, upstream, snapshotFor: () => snapshot })
  const t0 = performance.now()
  const result = await follower.apply(payload, canonical)
  const ms = performance.now() - t0
  if (result.kind !== 'applied' || bytesToHex(result.flashblock.diff.blockHash) !== bytesToHex(fb.diff.blockHash)) {
    throw new Error(
      `re-execution differs from the leader: ${JSON.stringify(result.kind === 'applied' ? follower.stats : result)}`,
    )
  }
  return { ms, requests: result.upstreamRequests }
}

const cold: number[] = []
const coldRequests: number[] = []
for (let i = 0; i < Math.max(5, runs / 4); i++) {
  const { ms, requests } = await applyOnce(new UpstreamSnapshot(upstream, canonical))
  cold.push(ms)
  coldRequests.push(requests)
}
const shared = new UpstreamSnapshot(upstream, canonical)
await applyOnce(shared)
const warm: number[] = []
for (let i = 0; i < runs; i++) warm.push((await applyOnce(shared)).ms)
await leader.close()

const fmt = (v: number) => v.toFixed(1)
const c = percentiles(cold)
const w = percentiles(warm)
console.log(`one flashblock of 100 ERC-20 transfers (${fb.diff.gasUsed} gas) re-executed on a loopback upstream`)
console.log(
  `cold (fresh per-block snapshot), n=${cold.length}: p50 ${fmt(c.p50)} ms, p90 ${fmt(c.p90)} ms; upstream requests ${coldRequests.join(', ')} (calls ${shared.stats.calls})`,
)
console.log(
  `warm (snapshot already filled), n=${warm.length}: p50 ${fmt(w.p50)} ms, p90 ${fmt(w.p90)} ms; upstream requests 0`,
)
