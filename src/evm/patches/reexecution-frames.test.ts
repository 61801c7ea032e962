import { bytesToHex } from '@ethereumjs/util'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { type Built, build, comparable, scenario } from '../../../test/support/frame-blocks.js'
import { plain } from '../../../test/support/frame-programs.js'
import { startFrozenService } from '../../../test/support/harness.js'
import { overTheWire } from '../../../test/support/over-the-wire.js'
import type { ReexecutionStats } from '../../capabilities/backend-status.js'
import type { Chain } from '../../chain/chain.js'
import type { Flashblock, ReceiptRecord } from '../../domain/types.js'
import { EarlyReceipts } from '../../follower/early-receipts.js'
import { Reexecutor } from '../../follower/reexecute.js'
import { UpstreamClient } from '../../follower/upstream-client.js'
import { UpstreamSnapshot } from '../../follower/upstream-snapshot.js'
import type { RunningService } from '../../service.js'
import { interpreterStats } from '../interpreter/stats.js'

/**
 * A follower's re-execution of a local leader's flashblocks, twice: on VMs whose transactions' and deposits'
 * outermost frames run on the interpreter (patchReexecutionEvm) and on VMs that run every frame on @ethereumjs.
 * Both read the leader's state over HTTP (upstream-backed state: a read not loaded yet is a promise the frame
 * awaits). Every re-executed flashblock and receipt must be the same in both, the leader's own, and what the
 * feed's metadata receipts served early. The blocks: test/support/frame-blocks.ts.
 */
let leader: RunningService
let chain: Chain
let built: Built
beforeAll(async () => {
  leader = await startFrozenService()
  chain = leader.chain as Chain
  built = await build(chain, scenario(chain))
})
afterAll(() => leader?.close())

interface Followed {
  flashblocks: Flashblock[]
  /** Each transaction's receipt as served before its frame was re-executed (the feed's), by hash. */
  early: Map<string, ReceiptRecord>
  stats: ReexecutionStats
  warnings: string[]
}

/**
 * The leader's flashblocks as a follower gets them, each block on its parent's upstream state (a new snapshot
 * of it). `accountsKnown`: each snapshot starts with every account the blocks' transactions name asked for, as a
 * later flashblock of the same senders and contracts finds it, so the re-executor skips its read discovery
 * (follower/discover.ts) and the frames meet storage the upstream has not answered yet.
 */
async function follow(evmInterpreter: boolean, accountsKnown = false): Promise<Followed> {
  const warnings: string[] = []
  const upstream = new UpstreamClient(leader.url)
  const named = built.flashblocks.flatMap((fb) =>
    fb.executed.txs.flatMap((t) => [t.sender, t.tx.to?.bytes ?? t.sender]),
  )
  const snapshotFor = (number: bigint) => {
    const snapshot = new UpstreamSnapshot(upstream, number)
    if (accountsKnown) for (const address of named) void snapshot.account(address)
    return snapshot
  }
  const reexecutor = new Reexecutor({
    common: chain.common,
    upstream,
    evmInterpreter,
    snapshotFor,
    warn: (m) => warnings.push(m),
  })
  let height = 0n
  const receipts = new EarlyReceipts({ common: chain.common, canonicalHeight: () => height })
  const followed: Followed = { flashblocks: [], early: new Map(), stats: reexecutor.stats, warnings }
  for (const fb of built.flashblocks) {
    const payload = overTheWire(fb)
    height = payload.metadata.blockNumber - 1n
    const txs = receipts.onFrame(payload) ?? []
    for (const { hash } of txs) {
      const early = receipts.tx(hash)
      if (early) followed.early.set(bytesToHex(hash), early.receipt)
    }
    const result = await reexecutor.apply(payload, height, { txs: txs.length ? txs : undefined })
    if (result.kind !== 'applied') throw new Error(`flashblock not applied: ${JSON.stringify(result)}`)
    receipts.settle(txs)
    followed.flashblocks.push(result.flashblock)
  }
  return followed
}

/** What a receipt tells of its run: the feed's early ones carry no OP Stack fees (only re-execution reads them). */
const outcome = (r: ReceiptRecord) =>
  plain({ status: r.status, gasUsed: r.gasUsed, cumulativeGasUsed: r.cumulativeGasUsed, logs: r.logs })

/** Both followers' flashblocks, receipts and early receipts the leader's, and each other's. */
function expectSame(ours: Followed, reference: Followed): void {
  expect(ours.flashblocks.map(comparable)).toEqual(reference.flashblocks.map(comparable))
  for (const [i, fb] of built.flashblocks.entries()) {
    const where = `block ${fb.executed.header.number} flashblock ${fb.index}`
    for (const followed of [ours, reference]) {
      const mine = followed.flashblocks[i]
      expect(bytesToHex(mine.diff.blockHash), where).toBe(bytesToHex(fb.diff.blockHash))
      expect(plain(mine.executed.receipts), `${where}'s receipts`).toEqual(plain(fb.executed.receipts))
    }
  }
  for (const followed of [ours, reference]) {
    expect(followed.warnings).toEqual([])
    expect(followed.stats).toMatchObject({ receiptMismatches: 0, hashMismatches: 0, failures: 0 })
  }

  // the receipts served early (the feed's) are the ones re-execution made, on both
  const reexecuted = (followed: Followed): Map<string, unknown> =>
    new Map(
      followed.flashblocks.flatMap((fb) =>
        fb.executed.txs.map((t, i) => [bytesToHex(t.hash), outcome(fb.executed.receipts[i])] as const),
      ),
    )
  const early = new Map([...ours.early].map(([hash, r]) => [hash, outcome(r)]))
  expect(early.size).toBe(built.flashblocks.reduce((n, fb) => n + fb.executed.txs.length, 0))
  expect(new Map([...reference.early].map(([hash, r]) => [hash, outcome(r)]))).toEqual(early)
  for (const [hash, receipt] of early) {
    expect(reexecuted(ours).get(hash), hash).toEqual(receipt)
    expect(reexecuted(reference).get(hash), hash).toEqual(receipt)
  }
}

/** Re-executes the blocks with the hook and without; what the hooked run counted. */
async function followBoth(accountsKnown: boolean) {
  const ran = interpreterStats.reexecuted
  const awaited = interpreterStats.reexecuteAwaitedReads
  const handedBack = new Map(interpreterStats.reexecuteFallbacks)
  const ours = await follow(true, accountsKnown)
  const counted = {
    interpreted: interpreterStats.reexecuted - ran,
    awaitedReads: interpreterStats.reexecuteAwaitedReads - awaited,
    handedBack: (reason: string) =>
      (interpreterStats.reexecuteFallbacks.get(reason) ?? 0) - (handedBack.get(reason) ?? 0),
  }
  const reference = await follow(false, accountsKnown)
  // the reference ran nothing on the interpreter
  expect(interpreterStats.reexecuted - ran).toBe(counted.interpreted)
  expectSame(ours, reference)
  return counted
}

test("a follower's blocks re-executed with the outermost frames on the interpreter are those @ethereumjs alone re-executes", async () => {
  const { interpreted, handedBack } = await followBoth(false)

  // what the blocks hold: every transaction and deposit, and each kind of outcome among them
  const receipts = built.blocks.flatMap((b) => b.receipts)
  expect(built.blocks.map((b) => b.txs.length)).toEqual([9, 17, 9, 6, 1])
  expect(receipts.filter((r) => r.status === 0).length).toBeGreaterThanOrEqual(6)
  // the frames: the five L1-info deposits, two user deposits and the calls of blocks 2-4 but those handed back
  expect(interpreted).toBeGreaterThanOrEqual(5 + 2 + 20)
  expect(handedBack('call with value')).toBe(1)
  expect(handedBack('CREATE')).toBe(1)
  expect(handedBack('warm set beyond the transaction’s (access list, authorizations)')).toBe(1)
  // the EIP-7610 check's listener (creations only) does not count as tracing
  expect(handedBack('traced (EVM event listeners)')).toBe(0)
})

test('storage the upstream has not answered when a frame reaches it is awaited and counted, and the blocks are the same', async () => {
  const { interpreted, awaitedReads } = await followBoth(true)
  expect(interpreted).toBeGreaterThanOrEqual(5 + 2 + 20)
  expect(awaitedReads).toBeGreaterThan(0)
})
