/**
 * Soak: several senders flood a small pool with a few thousand transactions over HTTP, with many in
 * flight at once (so nonces arrive out of order) and a share of them replaced by a higher-fee copy. The
 * pool must answer `txpool is full` when it is, never drop silently: every hash eth_sendRawTransaction
 * returned ends in a block, or was replaced by a transaction of the same sender and nonce that did.
 */
import { type Hex, createPublicClient, http } from 'viem'
import { type HDAccount, mnemonicToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { DEFAULT_MNEMONIC } from '../../src/config.js'
import { startService, type RunningService } from '../../src/service.js'
import { BOB } from '../support/dev-keys.js'
import { viemChain } from '../support/harness.js'
import { post, request, rpc } from '../support/rpc.js'

const SENDERS = 8
const PER_SENDER = 400
/** Sends one sender keeps in flight; 8 × 32 is well past the pool's 120, and 32 past a sender's 20. */
const IN_FLIGHT = 32
/** Every REPLACE_EVERY-th nonce is sent twice, the second time with a doubled fee. */
const REPLACE_EVERY = 25
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

  /** Sends until the pool takes it; `txpool is full` means try again shortly, as a wallet would. */
  async function sendUntilAccepted(account: HDAccount, nonce: number, fees: typeof BASE_FEES): Promise<void> {
    const raw = await account.signTransaction({
      chainId: viemChain.id,
      type: 'eip1559',
      to: BOB,
      value: 1n,
      gas: 21_000n,
      nonce,
      ...fees,
    })
    // a sender with nothing in a full pool may lose the race for a free slot for a while; a minute of refusals
    // means stuck. The clock starts at the first refusal: on a loaded machine a request can wait seconds for a
    // socket before the service sees it, and that wait is the test client's, not the pool's.
    let giveUp: number | undefined
    for (;;) {
      const reply = await rpc(service.url, 'eth_sendRawTransaction', [raw])
      if (reply.result !== undefined) {
        accepted.push({ sender: account.address, nonce, hash: reply.result as Hex })
        return
      }
      const message = reply.error!.message
      rejections.set(message, (rejections.get(message) ?? 0) + 1)
      // the original may already be in a block when its replacement arrives: then the original stands
      if (message === 'nonce too low' || message === 'replacement transaction underpriced') return
      expect(message).toBe('txpool is full')
      giveUp ??= Date.now() + 60_000
      if (Date.now() > giveUp) {
        const pool = (await rpc(service.url, 'txpool_content', [])).result as {
          pending: object
          queued: Record<string, object>
        }
        const mined = (await rpc(service.url, 'eth_getTransactionCount', [account.address, 'latest'])).result
        throw new Error(
          `${account.address} nonce ${nonce} refused for 60 s (mined nonce ${mined}, pool ${JSON.stringify(pool).length} bytes): the sender is stranded`,
        )
      }
      // back off as a wallet would: hammering a full pool only slows the sequencer that empties it
      await new Promise((resolve) => setTimeout(resolve, 100))
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
