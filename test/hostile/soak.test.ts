/**
 * Soak: several senders flood a small pool with a few thousand transactions over HTTP, with many in
 * flight at once (so nonces arrive out of order) and a share of them replaced by a higher-fee copy. The
 * pool must answer `txpool is full` when it is, never drop silently: every hash eth_sendRawTransaction
 * returned ends in a block, or was replaced by a transaction of the same sender and nonce that did.
 */
import { EventEmitter } from 'node:events'
import { type Hex, createPublicClient, http, keccak256 } from 'viem'
import { type HDAccount, mnemonicToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { DEFAULT_MNEMONIC } from '../../src/config.js'
import { startService, type RunningService } from '../../src/service.js'
import { BOB } from '../support/dev-keys.js'
import { viemChain } from '../support/harness.js'
import { post, request, rpc, type RpcReply } from '../support/rpc.js'

const SENDERS = 8
const PER_SENDER = 400
/** Sends one sender keeps in flight; 8 × 32 is well past the pool's 120, and 32 past a sender's 20. */
const IN_FLIGHT = 32
/** Every REPLACE_EVERY-th nonce is sent twice, the second time with a doubled fee. */
const REPLACE_EVERY = 25
/** Flashblocks through which a send refused `txpool is full` is stranded (a minute at 100 ms each). */
const STRANDED_AFTER = 600
/** How long a send waits for its answer before it is sent again (a wallet's patience, not a deadline). */
const SEND_PATIENCE_MS = 20_000
const BASE_FEES = { maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 10n ** 9n }

interface Accepted {
  sender: Hex
  nonce: number
  hash: Hex
}

describe('a flood of transactions from several senders', () => {
  let service: RunningService
  const accepted: Accepted[] = []
  const rejections = new Map<string, number>()

  beforeAll(async () => {
    service = await startService({
      port: 0,
      quiet: true,
      rateLimit: 0,
      blockTimeMs: 500,
      flashblockIntervalMs: 100,
      txpoolMaxTotal: 120,
      txpoolMaxPerSender: 20,
    })
  })
  afterAll(() => service?.close())

  /**
   * One eth_sendRawTransaction; undefined when no answer came (none within SEND_PATIENCE_MS, or the connection
   * failed). 256 sends in flight from this process to the service in it, beside CPU hogs: a connect was seen to
   * time out, and an answer the service wrote (its res.end ran) never to reach the fetch. A wallet sends again.
   */
  async function sendRaw(raw: Hex): Promise<RpcReply | undefined> {
    try {
      return (await post(service.url, request('eth_sendRawTransaction', [raw]), { timeoutMs: SEND_PATIENCE_MS }))
        .json as RpcReply
    } catch (err) {
      // no answer: the wait ran out, or the connection failed (a connect timeout while the process is starved)
      if ((err as Error).name === 'TimeoutError' || (err as Error).message === 'fetch failed') return undefined
      throw err
    }
  }

  /**
   * A sender's sends refused `txpool is full`, waiting to be sent again: lowest nonce first, one at a time, as a
   * wallet re-sends its oldest pending transaction. Every refused send trying again on every flashblock (256 of
   * them, of which the pool can take a few) was a load of its own: beside two CPU hogs the service, in this
   * process, fell behind its own sends (answers past SEND_PATIENCE_MS, sent again), built ~3 flashblocks a
   * second instead of 10, and the flood outlasted the test's 240 s (~25 s on a quiet machine): 34 000 sends in
   * 207 s for 1 700 accepted. One at a time: 5 600 sends for all 3 300, 108 s beside the hogs (load 10).
   */
  class Resends extends EventEmitter {
    private readonly waiting = new Set<number>()

    constructor() {
      super()
      // every waiting send of the sender listens (up to IN_FLIGHT)
      this.setMaxListeners(0)
    }

    /** Resolves when `nonce` may be sent again: it is the lowest waiting, after a flashblock or its predecessor's acceptance. */
    async turn(nonce: number): Promise<void> {
      this.waiting.add(nonce)
      do await this.nextChance()
      while (nonce !== Math.min(...this.waiting))
    }

    /** `nonce` is answered for good: the next waiting one goes at once (it likely fills the gap this one left). */
    leave(nonce: number): void {
      if (this.waiting.delete(nonce)) this.emit('moved')
    }

    /** The next flashblock (the sequencer took from the pool) or the line moving on, whichever comes first. */
    private nextChance(): Promise<void> {
      const events = service.chain.events
      return new Promise((resolve) => {
        const done = () => {
          events.off('flashblock', done)
          this.off('moved', done)
          resolve()
        }
        events.on('flashblock', done)
        this.on('moved', done)
      })
    }
  }
  const resends = new Map<Hex, Resends>()

  /** Sends until the pool takes it; `txpool is full` means try again shortly, as a wallet would. */
  async function sendUntilAccepted(account: HDAccount, nonce: number, fees: typeof BASE_FEES): Promise<void> {
    const line = resends.get(account.address) ?? resends.set(account.address, new Resends()).get(account.address)!
    try {
      await sendUntilAcceptedIn(line, account, nonce, fees)
    } finally {
      line.leave(nonce)
    }
  }

  async function sendUntilAcceptedIn(
    line: Resends,
    account: HDAccount,
    nonce: number,
    fees: typeof BASE_FEES,
  ): Promise<void> {
    const raw = await account.signTransaction({
      chainId: viemChain.id,
      type: 'eip1559',
      to: BOB,
      value: 1n,
      gas: 21_000n,
      nonce,
      ...fees,
    })
    // a sender with nothing in a full pool may lose the race for a free slot for a while; refused through
    // STRANDED_AFTER flashblocks (each a chance the sequencer took to empty the pool) means stuck: counted in
    // flashblocks, not seconds, a busy machine gives the pool the same chances as an idle one
    let refusals = 0
    let resent = false
    for (;;) {
      const reply = await sendRaw(raw)
      if (reply === undefined) {
        resent = true
        continue
      }
      if (reply.result !== undefined) {
        accepted.push({ sender: account.address, nonce, hash: reply.result as Hex })
        return
      }
      const message = reply.error!.message
      rejections.set(message, (rejections.get(message) ?? 0) + 1)
      // a resend after an answer that never came: the pool knows it, or has already built it (the sends of a
      // nonce are this test's alone), so it was accepted; either way the checks below find where it went
      if (message === 'already known' || (resent && message === 'nonce too low')) {
        accepted.push({ sender: account.address, nonce, hash: keccak256(raw) })
        return
      }
      // the original may already be in a block when its replacement arrives: then the original stands
      if (message === 'nonce too low' || message === 'replacement transaction underpriced') return
      expect(message).toBe('txpool is full')
      if (++refusals > STRANDED_AFTER) {
        const mined = await rpc(service.url, 'eth_getTransactionCount', [account.address, 'latest'])
        throw new Error(
          `${account.address} nonce ${nonce} refused through ${STRANDED_AFTER} flashblocks (mined nonce ${mined.result}, pool ${service.chain.pool.size}): the sender is stranded`,
        )
      }
      // try again once the sequencer has built from the pool (a flashblock): before that it is still full
      await line.turn(nonce)
    }
  }

  async function flood(account: HDAccount): Promise<void> {
    let next = 0
    const worker = async () => {
      while (next < PER_SENDER) {
        const nonce = next++
        await sendUntilAccepted(account, nonce, BASE_FEES)
        if (nonce % REPLACE_EVERY === 0) {
          await sendUntilAccepted(account, nonce, {
            maxFeePerGas: BASE_FEES.maxFeePerGas * 2n,
            maxPriorityFeePerGas: BASE_FEES.maxPriorityFeePerGas * 2n,
          })
        }
      }
    }
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker))
  }

  test('the pool says txpool is full instead of dropping, and every accepted hash ends in a block or was replaced', async () => {
    const accounts = Array.from({ length: SENDERS }, (_, i) => mnemonicToAccount(DEFAULT_MNEMONIC, { addressIndex: i }))
    await Promise.all(accounts.map(flood))

    expect(rejections.get('txpool is full') ?? 0).toBeGreaterThan(0)
    expect(accepted.length).toBeGreaterThanOrEqual(SENDERS * PER_SENDER)

    const client = createPublicClient({ chain: viemChain, transport: http(service.url) })
    // every sender's nonce reaches the end: nothing it sent is stuck or lost
    await expect
      .poll(
        async () => {
          const counts = await Promise.all(
            accounts.map((a) => client.getTransactionCount({ address: a.address, blockTag: 'latest' })),
          )
          return counts.every((count) => count === PER_SENDER)
        },
        { timeout: 60_000, interval: 250 },
      )
      .toBe(true)

    const receipts = new Map<Hex, { status: string; from: string; nonce: number }>()
    for (let i = 0; i < accepted.length; i += 100) {
      const batch = accepted.slice(i, i + 100)
      const res = await post(
        service.url,
        batch.map((a, id) => request('eth_getTransactionByHash', [a.hash], id)),
      )
      const replies = res.json as {
        id: number
        result: { blockNumber: string | null; from: string; nonce: string } | null
      }[]
      for (const reply of replies) {
        const tx = reply.result
        if (tx?.blockNumber)
          receipts.set(batch[reply.id]!.hash, { status: 'mined', from: tx.from, nonce: Number(tx.nonce) })
      }
    }

    const minedBySlot = new Map<string, Hex>()
    for (const [hash, tx] of receipts) {
      const slot = `${tx.from.toLowerCase()}/${tx.nonce}`
      expect(minedBySlot.has(slot), `two mined transactions for ${slot}`).toBe(false)
      minedBySlot.set(slot, hash)
    }
    const lost = accepted.filter((a) => {
      if (receipts.has(a.hash)) return false
      const winner = minedBySlot.get(`${a.sender.toLowerCase()}/${a.nonce}`)
      return winner === undefined // not mined, and nothing of the same sender and nonce was
    })
    expect(lost).toEqual([])
    expect(minedBySlot.size).toBe(SENDERS * PER_SENDER)
    // replaced originals: accepted, not mined, and their slot holds the higher-fee copy
    const replaced = accepted.filter((a) => !receipts.has(a.hash))
    expect(replaced.every((a) => a.nonce % REPLACE_EVERY === 0)).toBe(true)
  }, 240_000)
})
