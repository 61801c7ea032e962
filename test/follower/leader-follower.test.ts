/**
 * One embedded service as the leader and two followers of it (its HTTP endpoint as --upstream, its
 * /ws/flashblocks as --upstream-feed), all on loopback. Transactions are sent *through a follower* and
 * preconfirmed by it while the leader still holds the block open (the leader seals only when the test
 * says, so "before sealing" is a fact, not a race); after sealing, every read answers the same on the
 * leader and both followers, on both endpoints.
 */
import { JsonRpcProvider, Wallet } from 'ethers'
import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import {
  createPublicClient,
  createWalletClient,
  encodeDeployData,
  encodeFunctionData,
  http,
  parseEther,
  publicActions,
  type Hex,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import WebSocket from 'ws'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { keccak256 } from '../../src/evm/crypto.js'
import { preconfRpcChain } from '../../src/client/chains.js'
import { decodeFrame } from '../../src/feed/codec.js'
import { decodeFlashblock } from '../../src/feed/decode.js'
import { isEndOfBlock } from '../../src/feed/wire.js'
import { encodeDeposit } from '../../src/domain/deposit-encoding.js'
import { type RunningFollower, type RunningService, startService } from '../../src/service.js'
import { BOB, CAROL, DEV_KEY_1, DEV_KEY_2 } from '../support/dev-keys.js'
import { testToken } from '../support/fixtures.js'
import { rpc } from '../support/rpc.js'
import { until } from '../support/wait-for.js'

/** Dev account 3. */
const DAVE: Hex = '0x90f79bf6eb2c4f870365e785982e1f101e93b906'

let leader: RunningService
let followers: RunningFollower[]
const relayed: unknown[] = []
let relay: WebSocket

const result = async (url: string, method: string, params: unknown[] = []) => {
  const reply = await rpc(url, method, params)
  if (reply.error) throw new Error(`${method} on ${url}: ${reply.error.message}`)
  // biome-ignore lint/suspicious/noExplicitAny: JSON answers, compared field by field as they come
  return reply.result as any
}
const caughtUp = () =>
  until(async () => {
    const height = await result(leader.url, 'eth_blockNumber')
    const heights = await Promise.all(followers.map((f) => result(f.url, 'eth_blockNumber')))
    return heights.every((h) => h === height)
  }, 'the followers to reach the leader head')

/**
 * Until both followers preconfirm the block the leader holds open, sealing (at most 4 times) so they get a new
 * block's index 0. A follower whose feed opened after the open block's index 0 (at start; after a reconnect, as
 * a pong late on a loaded machine causes: this one process hosts the leader and both followers, every frame
 * then out of sequence) or that dropped it (its upstream head later than FOLLOWER_PARENT_WAIT_MS) preconfirms
 * nothing in it, and the leader keeps it open until the test seals; pending alone is not proof (it may be an
 * older block's).
 */
async function followersPreconfirmOpenBlock(): Promise<void> {
  const joined = () => {
    const open = leader.chain.sequencer.openBlock // undefined until the next tick opens the block
    return open !== undefined && followers.every((f) => f.follower.pending.current()?.block.number === open)
  }
  for (let attempt = 1; !joined(); attempt++) {
    await leader.chain.sealNow()
    try {
      await until(joined, 'the followers to preconfirm the open block', 5_000)
    } catch (err) {
      if (attempt === 4) throw err
    }
  }
}

beforeAll(async () => {
  // flashblocks every 200 ms, blocks only when the test seals one
  leader = await startService({
    port: 0,
    quiet: true,
    rateLimit: 0,
    blockTimeMs: 3_600_000,
    flashblockIntervalMs: 200,
  })
  const follow = () =>
    startService({
      port: 0,
      quiet: true,
      rateLimit: 0,
      upstream: leader.url,
      upstreamFeed: `${leader.wsUrl}ws/flashblocks`,
      // the leader holds its block open for the whole test: a pending dropped on a stall (a loaded machine)
      // would only come back with the next block (the idle rule has its own test in faults.test.ts)
      flashblocksIdleTimeoutMs: 60_000,
    })
  followers = await Promise.all([follow(), follow()])
  relay = new WebSocket(`${followers[0].wsUrl}ws/flashblocks`)
  relay.on('message', (data, isBinary) => relayed.push(decodeFrame(isBinary ? (data as Buffer) : data.toString())))
  await new Promise((resolve) => relay.once('open', resolve))
  await followersPreconfirmOpenBlock()
}, 60_000)

afterAll(async () => {
  relay?.close()
  await Promise.all((followers ?? []).map((f) => f.close()))
  await leader?.close()
})

describe('a leader and two followers on loopback', { timeout: 60_000 }, () => {
  const chain = () => preconfRpcChain(followers[0].url.replace(/\/$/, ''))
  const sent: Hex[] = []
  let token: Hex
  let sealed: bigint

  test('the followers serve the leader chain id and head', async () => {
    for (const f of followers) {
      expect(await result(f.url, 'eth_chainId')).toBe(await result(leader.url, 'eth_chainId'))
      expect(f.config.chainId).toBe(leader.config.chainId)
    }
    await caughtUp()
  })

  test('a deployment, token transfers, a transfer and a mined revert sent through a follower are preconfirmed by it before the leader seals', async () => {
    const [one, two] = [DEV_KEY_1, DEV_KEY_2].map((k) => privateKeyToAccount(k))
    const transport = http(followers[0].flashblocksUrl)
    const wallet = (account: typeof one) => {
      const client = createWalletClient({ chain: chain(), account, transport }).extend(publicActions)
      // sent, then its receipt polled on the follower's /flashblocks until the preconfirmation shows it:
      // eth_sendRawTransactionSync would bound the wait by its 6 s maximum, a machine-speed deadline (that
      // method through a follower is early-receipts.test.ts's and faults.test.ts's). Not viem's
      // waitForTransactionReceipt: after a first miss it looks again only when eth_blockNumber moves (the
      // canonical height on /flashblocks, see the README), and this leader seals only when the test says.
      return {
        sendAndWait: async (tx: Parameters<typeof client.sendTransaction>[0]) => {
          const hash = await client.sendTransaction(tx)
          let receipt: Awaited<ReturnType<typeof client.getTransactionReceipt>> | undefined
          await until(async () => {
            receipt = await client.getTransactionReceipt({ hash }).catch(() => undefined)
            return receipt !== undefined
          }, `the follower to preconfirm ${hash}`)
          return receipt!
        },
      }
    }
    // gas given for calls into the token: the leader's own estimate on `pending` for a contract deployed in the
    // same pending block is too low (see the report); the follower's equals it (compared below)
    const deploy = await wallet(one).sendAndWait({
      data: encodeDeployData({ abi: testToken.abi, bytecode: testToken.bytecode, args: [10n ** 24n] }),
      gas: 3_000_000n,
    })
    expect(deploy.status).toBe('success')
    token = deploy.contractAddress!
    const transfer = (to: Hex, amount: bigint) =>
      encodeFunctionData({ abi: testToken.abi, functionName: 'transfer', args: [to, amount] })
    const receipts = [
      deploy,
      await wallet(one).sendAndWait({ to: token, data: transfer(BOB, 1000n), gas: 100_000n }),
      await wallet(one).sendAndWait({ to: token, data: transfer(CAROL, 7n), gas: 100_000n }),
      await wallet(two).sendAndWait({ to: DAVE, value: parseEther('1.5') }),
      await wallet(one).sendAndWait({ to: token, data: transfer(BOB, 10n ** 30n), gas: 100_000n }),
    ]
    expect(receipts.map((r) => r.status)).toEqual(['success', 'success', 'success', 'success', 'reverted'])
    expect(receipts[1].logs).toHaveLength(1)
    const number = receipts[0].blockNumber
    expect(receipts.every((r) => r.blockNumber === number)).toBe(true)
    for (const r of receipts) {
      sent.push(r.transactionHash)
      // the leader has not sealed: its general endpoint does not know the receipt yet
      expect(await result(leader.url, 'eth_getTransactionReceipt', [r.transactionHash])).toBeNull()
      expect(await result(followers[1].url, 'eth_getTransactionReceipt', [r.transactionHash])).toBeNull()
    }
    // the second follower saw the same preconfirmations through its own feed
    await until(
      async () => (await result(followers[1].flashblocksUrl, 'eth_getTransactionReceipt', [sent[4]])) !== null,
      'the second follower to preconfirm',
    )
    for (const hash of sent) {
      const theirs = await result(leader.flashblocksUrl, 'eth_getTransactionReceipt', [hash])
      for (const f of followers)
        expect(await result(f.flashblocksUrl, 'eth_getTransactionReceipt', [hash])).toEqual(theirs)
    }
    // pending state on the follower is the leader's: balances, nonces, code, token balances, eth_call
    const pendingReads: [string, unknown[]][] = [
      ['eth_getBalance', [DAVE, 'pending']],
      ['eth_getTransactionCount', [one.address, 'pending']],
      ['eth_getCode', [token, 'pending']],
      ['eth_call', [{ to: token, data: balanceOf(BOB) }, 'pending']],
      ['eth_estimateGas', [{ from: one.address, to: token, data: transfer(DAVE, 1n) }, 'pending']],
      ['eth_call', [{ to: token, data: balanceOf(BOB) }, 'pending', {}, { number: '0x3e8' }]],
      [
        'debug_traceCall',
        [
          { from: one.address, to: token, data: transfer(DAVE, 1n) },
          'pending',
          { tracer: 'prestateTracer', tracerConfig: { diffMode: true } },
        ],
      ],
    ]
    for (const [method, params] of pendingReads)
      expect(await result(followers[0].flashblocksUrl, method, params)).toEqual(
        await result(leader.flashblocksUrl, method, params),
      )
    sealed = (await leader.chain.sealNow()).number
    expect(sealed).toBe(number)
    await caughtUp()
  })

  test('after sealing, every read answers the same on the leader and both followers, on both endpoints', async () => {
    const latest = await result(leader.url, 'eth_blockNumber')
    const block = await result(leader.url, 'eth_getBlockByNumber', [latest, true])
    const reads: [string, unknown[]][] = [
      ['eth_blockNumber', []],
      ['eth_getBlockByNumber', ['0x0', true]],
      ['eth_getBlockByNumber', [latest, true]],
      ['eth_getBlockByNumber', ['latest', false]],
      ['eth_getBlockByHash', [block.hash, true]],
      ['eth_getBlockReceipts', [latest]],
      ['eth_getBlockTransactionCountByNumber', [latest]],
      ['eth_getTransactionByBlockNumberAndIndex', [latest, '0x1']],
      ['eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest' }]],
      ['eth_getLogs', [{ blockHash: block.hash, address: token }]],
      ['eth_getBalance', [DAVE, 'latest']],
      ['eth_getBalance', [CAROL, 'latest']],
      ['eth_getBalance', [BOB, latest]],
      ['eth_getTransactionCount', [privateKeyToAccount(DEV_KEY_1).address, 'latest']],
      ['eth_getCode', [token, 'latest']],
      ['eth_getStorageAt', [token, '0x0', 'latest']],
      ['eth_getStorageAt', [token, '0x2', latest]],
      ['eth_call', [{ to: token, data: balanceOf(BOB) }, 'latest']],
      ['eth_call', [{ to: token, data: balanceOf(CAROL) }, { blockHash: block.hash }]],
      ['eth_estimateGas', [{ from: BOB, to: CAROL, value: '0x1' }, 'latest']],
    ]
    for (const hash of sent) {
      reads.push(['eth_getTransactionByHash', [hash]], ['eth_getTransactionReceipt', [hash]])
    }
    for (const endpoint of ['url', 'flashblocksUrl'] as const) {
      for (const [method, params] of reads) {
        const theirs = await result(leader[endpoint], method, params)
        for (const f of followers) expect([method, await result(f[endpoint], method, params)]).toEqual([method, theirs])
      }
    }
    // a revert reaches the client as the leader answers it (code 3 with the revert data)
    const revert = { from: BOB, to: token, data: transferData(CAROL, 10n ** 30n) }
    const leaderReply = await rpc(leader.url, 'eth_call', [revert, 'latest'])
    expect(leaderReply.error?.code).toBe(3)
    for (const f of followers)
      expect((await rpc(f.url, 'eth_call', [revert, 'latest'])).error).toEqual(leaderReply.error)
  })

  test("the first follower's relayed feed rebuilds the sealed block", async () => {
    const payloads = relayed
      .filter((m) => !isEndOfBlock(m as never))
      .map((m) => decodeFlashblock(m as never))
      .filter((p) => p.metadata.blockNumber === sealed)
    expect(payloads.length).toBeGreaterThan(0)
    expect(payloads[0].index).toBe(0)
    const hashes = payloads.flatMap((p) => p.diff.transactions.map((raw) => bytesToHex(keccak256(raw))))
    const block = await result(leader.url, 'eth_getBlockByNumber', [`0x${sealed.toString(16)}`, false])
    expect(hashes).toEqual(block.transactions)
    expect(bytesToHex(payloads.at(-1)!.diff.stateRoot)).toBe(block.stateRoot)
  })

  test('viem reads and ethers sends work against a follower unchanged', async () => {
    await followersPreconfirmOpenBlock()
    const viemOf = (s: { flashblocksUrl: string }) =>
      createPublicClient({ chain: chain(), transport: http(s.flashblocksUrl) })
    expect(await viemOf(followers[1]).getBalance({ address: DAVE })).toBe(
      await viemOf(leader).getBalance({ address: DAVE }),
    )
    expect(await viemOf(followers[1]).getBlockNumber()).toBe(await viemOf(leader).getBlockNumber())
    const provider = new JsonRpcProvider(followers[1].flashblocksUrl, undefined, { staticNetwork: true, polling: true })
    provider.pollingInterval = 50
    const signer = new Wallet(DEV_KEY_2, provider)
    const tx = await signer.sendTransaction({ to: BOB, value: 12345n })
    await until(
      async () => (await result(followers[1].flashblocksUrl, 'eth_getTransactionReceipt', [tx.hash])) !== null,
      'the follower to preconfirm the ethers send',
    )
    // wait() takes a receipt it finds at once (one confirmation asked): the preconfirmed one, before any seal.
    // Called before the preconfirmation, it would wait for its block poller to see a new head after its
    // first eth_blockNumber; this leader seals once, so that wait could begin after the seal and never end.
    const receipt = await tx.wait()
    expect(receipt?.status).toBe(1)
    expect(await result(leader.url, 'eth_getTransactionReceipt', [tx.hash])).toBeNull()
    expect(BigInt(receipt!.blockNumber)).toBe(BigInt(await result(leader.url, 'eth_blockNumber')) + 1n)
    await leader.chain.sealNow()
    await caughtUp()
    expect((await result(followers[0].url, 'eth_getTransactionReceipt', [tx.hash])).blockHash).toBe(
      (await result(leader.url, 'eth_getTransactionReceipt', [tx.hash])).blockHash,
    )
    provider.destroy()
  })

  test('a send the sequencer refuses answers its error unchanged through the follower', async () => {
    const wallet = new Wallet(DEV_KEY_2)
    const raw = await wallet.signTransaction({
      to: BOB,
      value: 1n,
      nonce: 0,
      gasLimit: 21_000,
      gasPrice: 10n ** 10n,
      chainId: 196,
    })
    const direct = await rpc(leader.url, 'eth_sendRawTransaction', [raw])
    const through = await rpc(followers[0].url, 'eth_sendRawTransaction', [raw])
    expect(direct.error?.message).toMatch(/nonce too low/)
    expect(through.error).toEqual(direct.error)
  })

  test('a deposit (type 0x7e) sent to a follower answers -32000 transaction type not supported and is not forwarded', async () => {
    const raw = bytesToHex(
      encodeDeposit({
        sourceHash: new Uint8Array(32).fill(7),
        from: hexToBytes(BOB),
        to: hexToBytes(CAROL),
        mint: 10n ** 18n,
        value: 1n,
        gas: 100_000n,
        isSystemTx: false,
        data: new Uint8Array(),
      }),
    )
    const hash = bytesToHex(keccak256(hexToBytes(raw)))
    const through = await rpc(followers[0].url, 'eth_sendRawTransaction', [raw])
    expect(through.error).toEqual({ code: -32000, message: 'transaction type not supported' })
    expect(await result(leader.url, 'eth_getTransactionByHash', [hash])).toBeNull()
    // the same bytes sent to the leader itself are queued there and found by hash: the null above means
    // the follower kept them, not that the leader cannot tell
    expect(await result(leader.url, 'eth_sendRawTransaction', [raw])).toBe(hash)
    expect((await result(leader.url, 'eth_getTransactionByHash', [hash]))?.hash).toBe(hash)
  })
})

function balanceOf(owner: Hex): Hex {
  return encodeFunctionData({ abi: testToken.abi, functionName: 'balanceOf', args: [owner] })
}

function transferData(to: Hex, amount: bigint): Hex {
  return encodeFunctionData({ abi: testToken.abi, functionName: 'transfer', args: [to, amount] })
}
