/**
 * Fork mode over this service: a second instance on loopback forks the first at a fixed block while the
 * first keeps sealing blocks; reads at the fork block equal the first's, and the fork's own transfer
 * preconfirms on its /flashblocks without reaching the first.
 */
import type { Hex } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { type RunningService, startService } from '../../src/service.js'
import {
  balanceOfBob,
  deployOnUpstream,
  readsAt,
  signTokenTransfer,
  type Upstreamed,
} from '../support/fork-scenario.js'
import { call } from '../support/rpc.js'

let upstream: RunningService
let fork: RunningService
let upstreamed: Upstreamed
let forkBlock: Hex

beforeAll(async () => {
  upstream = await startService({ port: 0, quiet: true, rateLimit: 0, blockTimeMs: 200, flashblockIntervalMs: 50 })
  upstreamed = await deployOnUpstream(upstream.url)
  forkBlock = await call(upstream.url, 'eth_blockNumber')
  fork = await startService({
    port: 0,
    quiet: true,
    rateLimit: 0,
    mining: false,
    forkUrl: upstream.url,
    forkBlockNumber: BigInt(forkBlock),
  })
}, 60_000)
afterAll(async () => {
  await fork?.close()
  await upstream?.close()
})

test('a fork of this service reads as it does at the fork block, while the upstream moves on', async () => {
  expect(await call(fork.url, 'eth_chainId')).toBe(await call(upstream.url, 'eth_chainId'))
  expect(await readsAt(fork.url, forkBlock, upstreamed)).toEqual(await readsAt(upstream.url, forkBlock, upstreamed))
})

test("a transfer preconfirms on the fork's /flashblocks and never reaches the upstream", async () => {
  const { token } = upstreamed
  const raw = await signTokenTransfer(fork.url, token, 9n)
  const hash = await call(fork.url, 'eth_sendRawTransaction', [raw])
  await fork.chain.buildNow()
  expect((await call(fork.flashblocksUrl, 'eth_getTransactionReceipt', [hash])).status).toBe('0x1')
  expect(await call(fork.url, 'eth_getTransactionReceipt', [hash])).toBeNull()
  const atFork = await call(upstream.url, 'eth_call', [{ to: token, data: balanceOfBob() }, forkBlock])
  expect(BigInt(await call(fork.flashblocksUrl, 'eth_call', [{ to: token, data: balanceOfBob() }, 'pending']))).toBe(
    BigInt(atFork) + 9n,
  )
  await fork.chain.sealNow()
  expect(await call(upstream.url, 'eth_getTransactionByHash', [hash])).toBeNull()
  expect(await call(upstream.url, 'eth_call', [{ to: token, data: balanceOfBob() }, 'latest'])).toBe(atFork)
})
