import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { BOB } from '../support/dev-keys.js'
import { type Harness, startHarness } from '../support/harness.js'

describe('txpool_status and txpool_contentFrom', () => {
  let h: Harness

  beforeAll(async () => {
    h = await startHarness()
  })
  afterAll(() => h?.close())

  test('count and list a sender’s executable and nonce-gapped transactions until they are preconfirmed', async () => {
    const alice = h.alice.address
    const ready = await h.wallet.sendTransaction({ to: BOB, value: 1n, gas: 21_000n, ...h.fees() })
    const gap = { to: BOB, value: 2n, gas: 21_000n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 10n ** 9n }
    const waiting = await h.wallet.sendTransaction({ ...gap, nonce: 5 })
    for (const endpoint of ['general', 'flashblocks'] as const) {
      expect((await h.rpc(endpoint, 'txpool_status', [])).result).toEqual({ pending: '0x1', queued: '0x1' })
      const content = (await h.rpc(endpoint, 'txpool_contentFrom', [alice.toLowerCase()])).result as {
        pending: Record<string, { hash: string; blockHash: null }>
        queued: Record<string, { hash: string }>
      }
      expect(Object.keys(content.pending)).toEqual(['0'])
      expect(content.pending['0']).toMatchObject({ hash: ready, blockHash: null })
      expect(content.queued['5']?.hash).toBe(waiting)
    }
    const other = await h.rpc('general', 'txpool_contentFrom', [BOB])
    expect(other.result).toEqual({ pending: {}, queued: {} })
    await h.chain.buildNow()
    expect((await h.rpc('general', 'txpool_status', [])).result).toEqual({ pending: '0x0', queued: '0x1' })
  })

  test('a malformed address is refused with -32602', async () => {
    const reply = await h.rpc('general', 'txpool_contentFrom', ['0x1234'])
    expect(reply.error?.code).toBe(-32602)
  })
})
