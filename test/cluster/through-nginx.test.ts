/**
 * The cluster as operators run it (scripts/cluster/): redis-server, an embedded leader, two followers and
 * nginx in front, all real processes. Everything goes through nginx's one port: preconfirmations, viem and
 * ethers flows, the shared rate limit, a shared filter, and a follower killed with SIGKILL under read load.
 */
import { Contract, ContractFactory, JsonRpcProvider, Network, type TransactionResponse, Wallet } from 'ethers'
import {
  createPublicClient,
  createWalletClient,
  encodeDeployData,
  encodeFunctionData,
  http,
  parseEther,
  type Hex,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import WebSocket from 'ws'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type Cluster, startCluster } from '../../scripts/cluster/cluster.js'
import { preconfRpcChain } from '../../src/client/chains.js'
import { RATE_LIMIT_PER_SECOND } from '../../src/limits.js'
import { callVia, untilEveryMember, untilEveryMemberHasReceipt } from '../support/cluster.js'
import { SKIP_CLUSTER } from '../support/system-tools.js'
import { BOB, DEV_KEY_0, DEV_KEY_1, DEV_KEY_2 } from '../support/dev-keys.js'
import { testToken } from '../support/fixtures.js'
import { post, request } from '../support/rpc.js'
import { until } from '../support/wait-for.js'
import { Redis } from 'ioredis'
import { wsUrlOf } from '../../src/client/ws-url.js'

describe.skipIf(SKIP_CLUSTER)('two followers behind nginx', { timeout: 120_000 }, () => {
  let cluster: Cluster
  let entry: string
  const chain = () => preconfRpcChain(entry)
  const addressOf = (i: number) => cluster.followers[i]!.origin.replace('http://', '')

  beforeAll(async () => {
    cluster = await startCluster({ followers: 2 })
    entry = cluster.origin
  }, 300_000)
  afterAll(() => cluster?.stop())

  /** Until this machine's rate-limit window is over: its counter's key in the shared Redis has expired. */
  const freshWindow = async () => {
    const redis = new Redis(cluster.redisUrl, { lazyConnect: true })
    try {
      await until(async () => (await redis.keys('preconf-rpc:ratelimit:*')).length === 0, 'a fresh rate-limit window')
    } finally {
      redis.disconnect()
    }
  }

  test('a client sees a transaction preconfirmed on /flashblocks and on the raw feed, through nginx', async () => {
    const frames: string[] = []
    const feed = new WebSocket(`${wsUrlOf(entry)}/ws/flashblocks`)
    feed.on('message', (data) => frames.push(data.toString()))
    await new Promise((resolve, reject) => feed.once('open', resolve).once('error', reject))
    const wallet = createWalletClient({
      chain: chain(),
      account: privateKeyToAccount(DEV_KEY_2),
      transport: http(`${entry}/flashblocks`),
    })
    const receipt = await wallet.sendTransactionSync({ to: BOB, value: parseEther('0.5') })
    expect(receipt.status).toBe('success')
    // the receipt came from the pending block, and every member shows it: the next call may go to the other
    // follower, which applies the same flashblock from the feed a moment later on a loaded machine
    await until(async () => {
      const pending = await callVia(`${entry}/flashblocks`, 'eth_getTransactionReceipt', [receipt.transactionHash])
      return pending.json.result?.transactionHash === receipt.transactionHash
    }, 'the receipt on /flashblocks through nginx')
    await until(() => frames.length >= 2, 'flashblocks on the raw feed through nginx')
    feed.close()
  })

  test('an ethers v6 flow (deploy, transfer, wait, read) passes through the balancer, preconfirmed on /flashblocks', async () => {
    // ethers reuses answers to identical requests for 250 ms (cacheTimeout); the pending nonce must be fresh
    const options = { staticNetwork: true, cacheTimeout: -1, pollingInterval: 100 }
    const general = new JsonRpcProvider(entry, Network.from(196), options)
    const flash = new JsonRpcProvider(`${entry}/flashblocks`, Network.from(196), options)
    const deployer = new Wallet(DEV_KEY_0, general)
    const deploying = await new ContractFactory(testToken.abi as never, testToken.bytecode, deployer).deploy(500n)
    const contract = (await deploying.waitForDeployment()) as Contract
    const token = await contract.getAddress()
    // the next member nginx picks must know the contract and the deployer's nonce too (ethers asks it both)
    await untilEveryMember(cluster, '', 'eth_getCode', [token, 'latest'], (code) => code !== '0x', 'the token')
    // the transfer is sent and awaited on /flashblocks: its receipt is the preconfirmed one
    const transfer = (await new Contract(token, testToken.abi as never, new Wallet(DEV_KEY_0, flash)).getFunction(
      'transfer',
    )(BOB, 7n)) as TransactionResponse
    const receipt = await transfer.wait()
    expect(receipt!.status).toBe(1)
    await untilEveryMemberHasReceipt(cluster, transfer.hash, '/flashblocks')
    const onFlash = new Contract(token, testToken.abi as never, flash)
    expect(await onFlash.getFunction('balanceOf')(BOB, { blockTag: 'pending' })).toBe(7n)
    await untilEveryMemberHasReceipt(cluster, transfer.hash, '')
    expect(await contract.getFunction('balanceOf')(deployer.address)).toBe(493n)
    general.destroy()
    flash.destroy()
  })

  test('a viem flow (send, wait, read) passes through the balancer, answered by both members', async () => {
    const account = privateKeyToAccount(DEV_KEY_1)
    const publicClient = createPublicClient({ chain: chain(), transport: http(entry), pollingInterval: 100 })
    const wallet = createWalletClient({ chain: chain(), account, transport: http(entry) })
    const to = '0x000000000000000000000000000000000000dead'
    const hash = await wallet.sendTransaction({ to, value: 1234n })
    const receipt = await publicClient.waitForTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    await untilEveryMemberHasReceipt(cluster, hash, '')
    const before = await publicClient.getBalance({ address: to, blockNumber: receipt.blockNumber - 1n })
    expect(await publicClient.getBalance({ address: to, blockNumber: receipt.blockNumber })).toBe(before + 1234n)
    const members = new Set<string>()
    for (let i = 0; i < 6; i++) members.add((await callVia(entry, 'eth_chainId')).member)
    expect(members).toEqual(new Set([addressOf(0), addressOf(1)]))
  })

  test('one client IP is held to one budget across both replicas, not one per replica', async () => {
    // this machine is one client to nginx; a run that straddles two 1 s windows, or that one replica answered
    // alone, is repeated
    for (let attempt = 1; ; attempt++) {
      await freshWindow()
      const started = Date.now()
      const body = Array.from({ length: 25 }, (_, i) => request('eth_chainId', [], i))
      const replies = await Promise.all(Array.from({ length: 8 }, () => post(entry, body)))
      const members = new Set(replies.map((r) => r.headers['x-upstream-addr']))
      // only a run both replicas answered shows a shared budget (on a loaded machine nginx may send all 8 to
      // one, e.g. while the other's readiness probe is late)
      if ((Date.now() - started > 800 || members.size < 2) && attempt < 5) continue
      const admitted = replies.filter((r) => r.status === 200).length * 25
      expect(admitted).toBe(RATE_LIMIT_PER_SECOND)
      expect(replies.filter((r) => r.status === 429)).toHaveLength(4)
      expect(members).toEqual(new Set([addressOf(0), addressOf(1)]))
      return
    }
  })

  test('a filter created through the balancer and polled through it reports every log exactly once', async () => {
    await freshWindow() // the previous test spent its window's budget
    const account = privateKeyToAccount(DEV_KEY_1)
    const wallet = createWalletClient({ chain: chain(), account, transport: http(`${entry}/flashblocks`) })
    const deployed = await wallet.sendTransactionSync({
      data: encodeDeployData({ abi: testToken.abi, bytecode: testToken.bytecode, args: [10n ** 24n] }),
      gas: 3_000_000n,
    })
    const token = deployed.contractAddress!
    // sealed before the filter exists, so the constructor's mint is not among its changes
    const publicClient = createPublicClient({ chain: chain(), transport: http(entry), pollingInterval: 100 })
    await publicClient.waitForTransactionReceipt({ hash: deployed.transactionHash })
    const installed = await callVia(entry, 'eth_newFilter', [{ address: token }])
    const id = installed.json.result as Hex
    const from = BigInt((await callVia(entry, 'eth_blockNumber')).json.result)
    const seen: { transactionHash: Hex; logIndex: Hex }[] = []
    const pollers = new Set<string>()
    const poll = async () => {
      const reply = await callVia(entry, 'eth_getFilterChanges', [id])
      pollers.add(reply.member)
      seen.push(...reply.json.result)
    }
    const sent: Hex[] = []
    for (let i = 0; i < 6; i++) {
      const receipt = await wallet.sendTransactionSync({
        to: token,
        data: encodeFunctionData({ abi: testToken.abi, functionName: 'transfer', args: [BOB, BigInt(i + 1)] }),
        gas: 100_000n,
      })
      sent.push(receipt.transactionHash)
      // the next send asks a member for the pending nonce: it must have this one
      await untilEveryMemberHasReceipt(cluster, receipt.transactionHash, '/flashblocks')
      await poll()
    }
    const last = await publicClient.waitForTransactionReceipt({ hash: sent.at(-1)! })
    const head = (n: unknown) => BigInt(n as string) >= last.blockNumber
    await untilEveryMember(cluster, '', 'eth_blockNumber', [], head, `block ${last.blockNumber}`)
    for (let i = 0; i < 4; i++) await poll()
    const expected = (
      await callVia(entry, 'eth_getLogs', [{ address: token, fromBlock: `0x${(from + 1n).toString(16)}` }])
    ).json.result
    expect(expected.map((l: { transactionHash: Hex }) => l.transactionHash)).toEqual(sent)
    expect(seen).toEqual(expected)
    expect(pollers.size).toBe(2)
  })

  /**
   * One read as an HTTP client library does it: a request on a reused keep-alive connection that the server
   * closed at that instant fails before any reply and is sent again once (undici, browsers); any HTTP reply
   * that is not a 200 with a result is a failure.
   */
  const readOnce = async () => {
    try {
      return await callVia(entry, 'eth_getBalance', [BOB, 'pending'])
    } catch {
      return callVia(entry, 'eth_getBalance', [BOB, 'pending']).catch((err: Error) => ({
        status: 0,
        json: { error: err.message },
      }))
    }
  }

  test('a follower killed with SIGKILL under read load: no read fails, a transaction sent before is mined, the member rejoins', async () => {
    const victim = cluster.followers[0]!
    const account = privateKeyToAccount(DEV_KEY_2)
    const wallet = createWalletClient({ chain: chain(), account, transport: http(entry) })
    let reading = true
    const failures: unknown[] = []
    let reads = 0
    // two readers, paced under the 100 req/s budget this machine has as one client
    const reader = async () => {
      while (reading) {
        const reply = await readOnce()
        if (reply.status !== 200 || !reply.json?.result) failures.push(reply)
        reads++
        await new Promise((resolve) => setTimeout(resolve, 40))
      }
    }
    const readers = [reader(), reader()]
    const hash = await wallet.sendTransaction({ to: BOB, value: 777n })
    // the moment, for a failure's replay: how far the readers had come
    console.log(`SIGKILL to follower 0 (pid ${victim.pid}) after ${reads} reads, ${failures.length} failed`)
    process.kill(victim.pid, 'SIGKILL')
    const killedPid = victim.pid
    const atKill = reads
    // reads go on while the member is down (nginx finds it dead, retries on the other) and after
    await until(() => reads >= atKill + 50, 'fifty reads after the kill', 60_000)
    const publicClient = createPublicClient({ chain: chain(), transport: http(entry), pollingInterval: 100 })
    expect((await publicClient.waitForTransactionReceipt({ hash })).status).toBe('success')
    await until(() => victim.pid !== killedPid && victim.ready, 'the killed follower to be restarted and ready', 90_000)
    await until(
      async () => (await callVia(entry, 'eth_chainId')).member === addressOf(0),
      'nginx to use it again',
      30_000,
    )
    reading = false
    await Promise.all(readers)
    expect(failures).toEqual([])
    expect(reads).toBeGreaterThan(20)
  }, 180_000)
})
