/**
 * Receipts a feed frame's metadata carries, served by a follower before its re-execution: the leader (the
 * embedded service, which sends metadata receipts as X Layer does) holds its block open; the follower's
 * upstream is a loopback TCP proxy in front of it that the test freezes, so re-executing the frame waits
 * on upstream reads while the frame (straight from the leader's feed) has arrived. What a client sees:
 * the receipt at once, the re-executed one after the thaw, and nothing once the block is dropped.
 */
import { type Hex, encodeDeployData, keccak256 } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterEach, describe, expect, test } from 'vitest'
import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import type { Config } from '../../src/config/settings.js'
import { type RunningFollower, type RunningService, startService } from '../../src/service.js'
import { BOB, DEV_KEY_1, DEV_KEY_2 } from '../support/dev-keys.js'
import { startFeedRelay } from '../support/feed-relay.js'
import { testToken } from '../support/fixtures.js'
import { scrape } from '../support/prometheus.js'
import { call, rpc } from '../support/rpc.js'
import { startStallingUpstream } from '../support/stalling-upstream.js'
import { type TcpProxy, startTcpProxy } from '../support/tcp-proxy.js'
import { until } from '../support/wait-for.js'

/** What only re-execution can add: the OP Stack fee fields, read from the L1Block contract's state. */
const OP_FEE_FIELDS = [
  'blobGasUsed',
  'daFootprintGasScalar',
  'l1BaseFeeScalar',
  'l1BlobBaseFee',
  'l1BlobBaseFeeScalar',
  'l1Fee',
  'l1GasPrice',
  'l1GasUsed',
  'operatorFeeConstant',
  'operatorFeeScalar',
]

let closers: (() => Promise<unknown> | unknown)[] = []
afterEach(async () => {
  for (const close of closers.reverse()) await close()
  closers = []
})

interface Setup {
  leader: RunningService
  proxy: TcpProxy
  follower: RunningFollower
}

/** A leader that seals only when told. */
async function startLeader(): Promise<RunningService> {
  const leader = await startService({
    port: 0,
    quiet: true,
    rateLimit: 0,
    blockTimeMs: 3_600_000,
    flashblockIntervalMs: 200,
  })
  closers.push(() => leader.close())
  return leader
}

/**
 * A follower of `leader` through `upstream`, whose sends go straight to the leader (--sequencer), so a send
 * works while the upstream does not; resolves once it preconfirms.
 */
async function startFollower(
  leader: RunningService,
  upstream: string,
  settings: Partial<Config> = {},
): Promise<RunningFollower> {
  const follower = await startService({
    port: 0,
    quiet: true,
    rateLimit: 0,
    upstream,
    sequencer: leader.url,
    upstreamFeed: `${leader.wsUrl}ws/flashblocks`,
    ...settings,
  })
  closers.push(() => follower.close())
  // it joined the leader's open block in the middle: it preconfirms from the next block's index 0
  for (let attempt = 1; ; attempt++) {
    await leader.chain.sealNow()
    try {
      await until(() => follower.follower.pending.current() !== undefined, 'the follower to preconfirm', 5_000)
      return follower
    } catch (err) {
      if (attempt === 4) throw err
    }
  }
}

/** A leader and a follower whose upstream goes through a TCP proxy the test can freeze. */
async function setup(
  feedOf: (leaderFeed: string) => Promise<string> = async (url) => url,
  settings: Partial<Config> = {},
) {
  const leader = await startLeader()
  const proxy = await startTcpProxy(Number(new URL(leader.url).port))
  closers.push(() => {
    proxy.thaw()
    return proxy.down()
  })
  const follower = await startFollower(leader, proxy.url(), {
    upstreamFeed: await feedOf(`${leader.wsUrl}ws/flashblocks`),
    flashblocksIdleTimeoutMs: 60_000,
    ...settings,
  })
  return { leader, proxy, follower } satisfies Setup
}

/** A transfer of 1 wei to BOB from dev account 1 or 2 (the first transaction of that account on the leader). */
const transfer = (key: Hex) =>
  privateKeyToAccount(key).signTransaction({
    chainId: 196,
    type: 'eip1559',
    to: BOB,
    value: 1n,
    gas: 21_000n,
    nonce: 0,
    maxFeePerGas: 10n ** 10n,
    maxPriorityFeePerGas: 10n ** 9n,
  })

const receiptOn = (url: string, hash: Hex) => call(url, 'eth_getTransactionReceipt', [hash])

describe('a follower serves the receipts a frame carries before re-executing it', () => {
  test('eth_sendRawTransactionSync, eth_getTransactionReceipt and eth_getTransactionByHash answer while the upstream is frozen; the re-executed receipt is the same plus the OP fee fields', async () => {
    const { leader, proxy, follower } = await setup()
    const preconf = follower.flashblocksUrl
    const deploy = await privateKeyToAccount(DEV_KEY_2).signTransaction({
      chainId: 196,
      type: 'eip1559',
      data: encodeDeployData({ abi: testToken.abi, bytecode: testToken.bytecode, args: [10n ** 24n] }),
      gas: 3_000_000n,
      nonce: 0,
      maxFeePerGas: 10n ** 10n,
      maxPriorityFeePerGas: 10n ** 9n,
    })
    const send = await transfer(DEV_KEY_1)
    proxy.freeze()
    // the deployment (logs, a created address) goes to the leader first; the transfer through the follower
    await call(leader.url, 'eth_sendRawTransaction', [deploy])
    const sync = await rpc(preconf, 'eth_sendRawTransactionSync', [send, 5_000])
    const early = sync.result as Record<string, unknown>
    expect(sync.error).toBeUndefined()
    const hashes = [keccak256(deploy), keccak256(send)]
    await until(async () => (await receiptOn(preconf, hashes[0])) !== null, 'the deployment early')

    // re-execution has published neither: it waits on the frozen upstream
    for (const hash of hashes) expect(follower.follower.pending.tx(hexToBytes(hash))).toBeUndefined()
    expect(follower.follower.status().follower!.reexecution.failures).toBe(0)
    expect(early).toMatchObject({
      transactionHash: hashes[1],
      status: '0x1',
      from: privateKeyToAccount(DEV_KEY_1).address.toLowerCase(),
      to: BOB,
      gasUsed: '0x5208',
      type: '0x2',
      logs: [],
      contractAddress: null,
    })
    expect(await receiptOn(preconf, hashes[1])).toEqual(early)
    const created = await receiptOn(preconf, hashes[0])
    expect(created.contractAddress).toMatch(/^0x[0-9a-f]{40}$/)
    expect(created.logs.length).toBeGreaterThan(0)
    const tx = await call(preconf, 'eth_getTransactionByHash', [hashes[1]])
    expect([tx.blockHash, tx.blockNumber, tx.transactionIndex]).toEqual([
      early.blockHash,
      early.blockNumber,
      early.transactionIndex,
    ])
    // `/` shows canonical receipts only
    expect(await receiptOn(follower.url, hashes[1])).toBeNull()
    const servedEarly = follower.follower.status().follower!.earlyReceipts.served
    expect(servedEarly).toBeGreaterThanOrEqual(5)
    expect((await scrape(follower.url)).value('preconf_follower_early_receipts_served_total')).toBe(
      follower.follower.status().follower!.earlyReceipts.served,
    )

    const before = { deploy: created, send: early }
    proxy.thaw()
    await until(
      () => hashes.every((h) => follower.follower.pending.tx(hexToBytes(h)) !== undefined),
      'the frames re-executed',
    )
    const served = follower.follower.status().follower!.earlyReceipts.served
    for (const [name, hash] of [
      ['deploy', hashes[0]],
      ['send', hashes[1]],
    ] as const) {
      const after = await receiptOn(preconf, hash)
      const { [name]: first } = before
      expect(
        Object.keys(after)
          .filter((k) => !(k in first))
          .sort(),
      ).toEqual(OP_FEE_FIELDS)
      expect(Object.fromEntries(Object.entries(after).filter(([k]) => k in first))).toEqual(first)
      expect(after).toEqual(await receiptOn(`${leader.url}flashblocks`, hash))
    }
    // answered by re-execution now, not from the feed
    expect(follower.follower.status().follower!.earlyReceipts.served).toBe(served)
    expect(follower.follower.status().follower!.reexecution.receiptMismatches).toBe(0)
  }, 60_000)
})

describe('a provisional receipt goes with its dropped block', () => {
  test('re-execution that fails on the frozen upstream withdraws it: null until the block is sealed, then the canonical receipt', async () => {
    const { leader, proxy, follower } = await setup()
    const preconf = follower.flashblocksUrl
    proxy.freeze()
    const hash = await call<Hex>(leader.url, 'eth_sendRawTransaction', [await transfer(DEV_KEY_1)])
    await until(async () => (await receiptOn(preconf, hash)) !== null, 'the receipt early')
    // the prefetch of the frame's accounts times out (5 s) and the block is dropped
    await until(async () => (await receiptOn(preconf, hash)) === null, 'the receipt withdrawn', 45_000)
    const metrics = follower.follower.status().follower!
    expect(metrics.reexecution.failures).toBeGreaterThanOrEqual(1)
    expect(metrics.pending?.idleDrops).toBe(0)
    expect(metrics.earlyReceipts.withdrawn).toBeGreaterThanOrEqual(1)

    proxy.thaw()
    const sealed = await leader.chain.sealNow()
    await until(async () => (await receiptOn(preconf, hash)) !== null, 'the canonical receipt')
    expect((await receiptOn(preconf, hash)).blockHash).toBe(bytesToHex(sealed.hash))
  }, 90_000)

  test('a feed gone idle withdraws it before re-execution gives up', async () => {
    const send = await transfer(DEV_KEY_1)
    const hash = keccak256(send)
    let seen = false
    // the frame with the transaction passes; the relay holds every frame after it: the feed goes silent
    const { proxy, leader, follower } = await setup(
      async (url) => {
        const relay = await startFeedRelay(url, (payload) => {
          if (seen) return true
          seen = payload.diff.transactions.some((raw) => keccak256(bytesToHex(raw) as Hex) === hash)
          return false
        })
        closers.push(() => relay.close())
        return relay.url
        // the receipt shows until the feed is idle: long enough for a busy machine's polls to see it, and
        // re-execution, waiting on the frozen upstream, gives up long after
      },
      { flashblocksIdleTimeoutMs: 5_000, upstreamTimeoutMs: 60_000 },
    )
    const preconf = follower.flashblocksUrl
    proxy.freeze()
    await call(leader.url, 'eth_sendRawTransaction', [send])
    await until(async () => (await receiptOn(preconf, hash)) !== null, 'the receipt early')
    await until(async () => (await receiptOn(preconf, hash)) === null, 'the receipt withdrawn')
    const metrics = follower.follower.status().follower!
    expect(metrics.pending?.idleDrops).toBeGreaterThanOrEqual(1)
    // re-execution still waits on the upstream: the idle feed withdrew the receipt
    expect(metrics.reexecution.failures).toBe(0)
    expect(metrics.earlyReceipts.withdrawn).toBeGreaterThanOrEqual(1)
  }, 90_000)
})

describe('a stalled upstream is waited on once', () => {
  test('the frame asks it for its accounts in one request and is dropped when that one times out: the receipt is null after one --upstream-timeout', async () => {
    // the early receipt is seen only until this deadline withdraws it: wide enough for polls on a busy machine
    const timeoutMs = 3_000
    const leader = await startLeader()
    const upstream = await startStallingUpstream(leader.url)
    closers.push(() => upstream.close())
    const follower = await startFollower(leader, upstream.url, { upstreamTimeoutMs: timeoutMs })
    const preconf = follower.flashblocksUrl
    upstream.stall()
    const stalledAt = performance.now()
    const hash = await call<Hex>(leader.url, 'eth_sendRawTransaction', [await transfer(DEV_KEY_1)])
    await until(async () => (await receiptOn(preconf, hash)) !== null, 'the receipt early')
    await until(async () => (await receiptOn(preconf, hash)) === null, 'the receipt withdrawn')
    expect(performance.now() - stalledAt).toBeGreaterThanOrEqual(timeoutMs)
    // one batch of the sender's and recipient's balance, nonce and code; before, the EVM asked again and waited again
    const stateReads = upstream.stalled.filter((methods) => methods.includes('eth_getBalance'))
    expect(stateReads).toEqual([expect.arrayContaining(['eth_getBalance', 'eth_getTransactionCount', 'eth_getCode'])])
    expect(follower.follower.status().follower!.reexecution.failures).toBe(1)
  }, 60_000)
})
