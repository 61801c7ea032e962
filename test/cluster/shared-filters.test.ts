/**
 * Polling filters shared through Redis (`--redis-url`): a leader and two followers of it on one Redis, the
 * followers standing for replicas behind a load balancer. A filter installed through one replica is polled
 * and uninstalled through the other, each change is reported once even when polls race, the expiry is the
 * in-memory one and the per-client budget holds across replicas.
 */
import { Redis } from 'ioredis'
import { createWalletClient, encodeDeployData, encodeFunctionData, http, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { preconfRpcChain } from '../../src/client/chains.js'
import { FILTER_IDLE_TIMEOUT_MS, MAX_FILTERS_PER_CLIENT } from '../../src/limits.js'
import { type RunningFollower, type RunningService, startService } from '../../src/service.js'
import { BOB, DEV_KEY_1 } from '../support/dev-keys.js'
import { testToken } from '../support/fixtures.js'
import { TestRedis } from '../support/redis-server.js'
import { HAVE_REDIS_SERVER } from '../support/system-tools.js'
import { call, post, request, rpc } from '../support/rpc.js'
import { until } from '../support/wait-for.js'

describe.skipIf(!HAVE_REDIS_SERVER)('filters shared by two replicas through Redis', { timeout: 60_000 }, () => {
  let redis: TestRedis
  let inspector: Redis
  let leader: RunningService
  let replicas: RunningFollower[]
  let token: Hex
  const account = privateKeyToAccount(DEV_KEY_1)

  const url = (i: number) => replicas[i % 2]!.url
  /** Seals the leader's open block and waits until both replicas show it as their head. */
  const seal = async () => {
    const block = await leader.chain.sealNow()
    const height = `0x${block.number.toString(16)}`
    await until(
      async () => (await Promise.all(replicas.map((r) => call(r.url, 'eth_blockNumber')))).every((h) => h === height),
      'both replicas to reach the sealed block',
    )
  }
  /** A token transfer through the second replica, returned once preconfirmed (so the next seal holds it). */
  const transfer = async (amount: bigint) => {
    const wallet = createWalletClient({
      chain: preconfRpcChain(url(1)),
      account,
      transport: http(replicas[1]!.flashblocksUrl),
    })
    const receipt = await wallet.sendTransactionSync({
      to: token,
      data: encodeFunctionData({ abi: testToken.abi, functionName: 'transfer', args: [BOB, amount] }),
      gas: 100_000n,
    })
    return receipt.transactionHash
  }

  beforeAll(async () => {
    redis = await TestRedis.start()
    inspector = new Redis(redis.url)
    // the leader shares its pool's admissions (pending-transaction filters); it seals only when told
    leader = await startService({
      port: 0,
      quiet: true,
      rateLimit: 0,
      redisUrl: redis.url,
      blockTimeMs: 3_600_000,
      flashblockIntervalMs: 200,
    })
    const replica = () =>
      startService({
        port: 0,
        quiet: true,
        rateLimit: 0,
        redisUrl: redis.url,
        trustedProxies: ['127.0.0.1/32'],
        upstream: leader.url,
        upstreamFeed: `${leader.wsUrl}ws/flashblocks`,
        flashblocksIdleTimeoutMs: 60_000,
      })
    replicas = await Promise.all([replica(), replica()])
    const transport = http(leader.flashblocksUrl)
    const wallet = createWalletClient({ chain: preconfRpcChain(leader.url), account, transport })
    const deployed = await wallet.sendTransactionSync({
      data: encodeDeployData({ abi: testToken.abi, bytecode: testToken.bytecode, args: [10n ** 24n] }),
      gas: 3_000_000n,
    })
    token = deployed.contractAddress!
    await seal()
  }, 60_000)

  afterAll(async () => {
    await Promise.all((replicas ?? []).map((r) => r.close()))
    await leader?.close()
    inspector?.disconnect()
    await redis?.kill()
  })

  test('a log filter installed through one replica and polled through both reports every log once', async () => {
    const id = await call<Hex>(url(0), 'eth_newFilter', [{ address: token }])
    const from = BigInt(await call(url(0), 'eth_blockNumber')) + 1n
    const seen: { transactionHash: Hex; logIndex: Hex }[] = []
    for (let round = 0; round < 4; round++) {
      await transfer(1n)
      await transfer(2n)
      await seal()
      seen.push(...(await call(url(round), 'eth_getFilterChanges', [id])))
      seen.push(...(await call(url(round + 1), 'eth_getFilterChanges', [id])))
    }
    const expected = await call(url(0), 'eth_getLogs', [{ address: token, fromBlock: `0x${from.toString(16)}` }])
    expect(expected).toHaveLength(8)
    expect(seen).toEqual(expected)
    expect(await call(url(1), 'eth_getFilterLogs', [id])).toEqual(await call(url(0), 'eth_getFilterLogs', [id]))
  })

  test('polls racing through both replicas split a block filter’s changes without repeating one', async () => {
    const id = await call<Hex>(url(1), 'eth_newBlockFilter')
    const sealed: Hex[] = []
    for (let i = 0; i < 3; i++) {
      await seal()
      sealed.push((await call(url(0), 'eth_getBlockByNumber', ['latest', false])).hash)
    }
    const replies = await Promise.all(
      Array.from({ length: 12 }, (_, i) => call<Hex[]>(url(i), 'eth_getFilterChanges', [id])),
    )
    expect(replies.flat()).toEqual(sealed)
  })

  test('a pending-transaction filter sees a transaction sent through the other replica, once', async () => {
    const id = await call<Hex>(url(0), 'eth_newPendingTransactionFilter')
    const hash = await transfer(3n)
    const seen: Hex[] = []
    await until(async () => {
      seen.push(...(await call<Hex[]>(url(seen.length), 'eth_getFilterChanges', [id])))
      return seen.includes(hash)
    }, 'the pending filter to report the transaction')
    for (let i = 0; i < 4; i++) seen.push(...(await call<Hex[]>(url(i), 'eth_getFilterChanges', [id])))
    expect(seen).toEqual([hash])
    await seal()
  })

  test('a filter is uninstalled through the other replica, expires as in memory, and answers `filter not found` after', async () => {
    const id = await call<Hex>(url(0), 'eth_newBlockFilter')
    const ttl = await inspector.pttl(`preconf-rpc:filters:${id}`)
    expect(ttl).toBeGreaterThan(FILTER_IDLE_TIMEOUT_MS - 10_000)
    expect(ttl).toBeLessThanOrEqual(FILTER_IDLE_TIMEOUT_MS)
    expect(await call(url(1), 'eth_uninstallFilter', [id])).toBe(true)
    expect(await call(url(0), 'eth_uninstallFilter', [id])).toBe(false)
    const reply = await rpc(url(0), 'eth_getFilterChanges', [id])
    expect(reply.error).toEqual({ code: -32000, message: 'filter not found' })
  })

  test('one client’s filter budget is counted across both replicas', async () => {
    const install = (i: number) =>
      post(url(i), request('eth_newBlockFilter', [], i), { headers: { 'x-forwarded-for': '198.51.100.7' } })
    for (let i = 0; i < MAX_FILTERS_PER_CLIENT; i++) expect((await install(i)).json.result).toMatch(/^0x/)
    const refused = (await install(MAX_FILTERS_PER_CLIENT)).json
    expect(refused.error.code).toBe(-32005)
    expect(refused.error.message).toMatch(/too many filters/)
  })
})
