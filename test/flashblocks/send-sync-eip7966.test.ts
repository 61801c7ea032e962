/**
 * EIP-7966 as viem's sendRawTransactionSync meets it on a real service: the timeout parameter (viem sends
 * a JSON number; older viem and geth a hex quantity) clamped to --rpc.send-raw-transaction-sync-timeout,
 * the timeout answer (code 4, the hash in data, the transaction kept), and the nonce gap refused before
 * admission (code 6, the expected nonce in data). The service builds nothing by itself (an hour between
 * flashblocks), so whether a receipt comes is the test's decision, never the clock's.
 */
import { type Hex, createWalletClient, http, keccak256 } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { parseArgs } from '../../src/flags.js'
import { type RunningService, startService } from '../../src/service.js'
import type { Chain } from '../../src/chain/chain.js'
import { DEV_KEY_2, signTransferToBob } from '../support/dev-keys.js'
import { startFrozenService, viemChain } from '../support/harness.js'
import { call, rpc } from '../support/rpc.js'
import { until } from '../support/wait-for.js'

/** Dev account 2's 1-wei transfer to BOB at `nonce`. */
const sign = (nonce: number) => signTransferToBob(nonce, DEV_KEY_2)

/** The JSON-RPC error under viem's wrapping (viem keeps the node's code and data on a cause). */
function rpcError(err: unknown): { code?: number; data?: unknown; message?: string } {
  for (let e = err as { code?: number; data?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (typeof e.code === 'number' && e.code !== -1) return e
  }
  throw err
}

describe('eth_sendRawTransactionSync (EIP-7966) through viem', () => {
  let service: RunningService
  let chain: Chain
  const wallet = () => createWalletClient({ chain: viemChain, transport: http(service.flashblocksUrl) })

  beforeAll(async () => {
    service = await startFrozenService({ sendSyncTimeoutMs: 300 })
    chain = service.chain as Chain
  })
  afterAll(() => service?.close())

  test('a longer timeout is clamped to the flag: code 4 after 300 ms with the hash, the transaction still pooled', async () => {
    const raw = await sign(0)
    const err = rpcError(
      await wallet()
        .sendRawTransactionSync({ serializedTransaction: raw, timeout: 60_000 })
        .catch((e: unknown) => e),
    )
    expect(err.code).toBe(4)
    expect(err.message).toMatch(/wasn't processed within 300 ms/)
    expect(err.data).toBe(keccak256(raw))
    expect(await call(service.url, 'eth_getTransactionByHash', [keccak256(raw)])).toMatchObject({ nonce: '0x0' })
    // it is not lost: the next flashblock preconfirms it
    await chain.buildNow()
    expect(await call(service.flashblocksUrl, 'eth_getTransactionReceipt', [keccak256(raw)])).toMatchObject({
      status: '0x1',
    })
  })

  test('a hex timeout (older viem, geth) is read as milliseconds', async () => {
    const raw = await sign(1)
    const reply = await rpc(service.flashblocksUrl, 'eth_sendRawTransactionSync', [raw, '0x32'])
    expect(reply.error).toMatchObject({ code: 4, message: expect.stringMatching(/within 50 ms/), data: keccak256(raw) })
    await chain.buildNow()
  })

  test('a nonce gap is refused with code 6 and the expected nonce, and nothing enters the pool', async () => {
    const gapped = await sign(9)
    const err = rpcError(
      await wallet()
        .sendRawTransactionSync({ serializedTransaction: gapped })
        .catch((e) => e),
    )
    expect(err.code).toBe(6)
    expect(err.data).toBe('0x2')
    expect(await call(service.url, 'eth_getTransactionByHash', [keccak256(gapped)])).toBeNull()
    // eth_sendRawTransaction still queues it, as geth does
    expect(await call(service.url, 'eth_sendRawTransaction', [gapped])).toBe(keccak256(gapped) as Hex)
  })
})

test('a timeout within the maximum is honoured: viem gets the receipt once the transaction is preconfirmed', async () => {
  const service = await startFrozenService({ sendSyncTimeoutMs: 600_000 })
  try {
    const chain = service.chain as Chain
    const wallet = createWalletClient({ chain: viemChain, transport: http(service.flashblocksUrl) })
    const raw = await sign(0)
    const sent = wallet.sendRawTransactionSync({ serializedTransaction: raw, timeout: 60_000 })
    await until(() => chain.pool.size > 0, 'the transaction admitted')
    await chain.buildNow()
    const receipt = await sent
    expect(receipt.status).toBe('success')
    expect(receipt.transactionHash).toBe(keccak256(raw))
  } finally {
    await service.close()
  }
})

test("a follower refuses a nonce gap with the sequencer's expected nonce, forwarding nothing", async () => {
  const leader = await startFrozenService()
  const follower = await startService({ port: 0, quiet: true, rateLimit: 0, upstream: leader.url })
  try {
    await call(leader.url, 'eth_sendRawTransaction', [await sign(0)]) // pooled on the sequencer: next is 1
    const gapped = await sign(3)
    const reply = await rpc(follower.flashblocksUrl, 'eth_sendRawTransactionSync', [gapped])
    expect(reply.error).toMatchObject({ code: 6, data: '0x1' })
    expect(await call(leader.url, 'eth_getTransactionByHash', [keccak256(gapped)])).toBeNull()
  } finally {
    await follower.close()
    await leader.close()
  }
})

test('--rpc.send-raw-transaction-sync-timeout takes reth durations, defaults to 6 s and refuses 0', () => {
  expect(parseArgs([]).sendSyncTimeoutMs).toBe(6000)
  expect(parseArgs(['--rpc.send-raw-transaction-sync-timeout', '2s']).sendSyncTimeoutMs).toBe(2000)
  expect(parseArgs(['--rpc.send-raw-transaction-sync-timeout', '750ms']).sendSyncTimeoutMs).toBe(750)
  expect(parseArgs(['--rpc.send-raw-transaction-sync-timeout', '30']).sendSyncTimeoutMs).toBe(30_000)
  expect(() => parseArgs(['--rpc.send-raw-transaction-sync-timeout', '0'])).toThrow(/from 1 ms/)
  expect(() => parseArgs(['--rpc.send-raw-transaction-sync-timeout', 'soon'])).toThrow(/duration such as 6s/)
})
