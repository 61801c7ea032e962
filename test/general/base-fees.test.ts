import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { BOB } from '../support/dev-keys.js'
import { type Harness, startHarness } from '../support/harness.js'

describe('eth_baseFee and eth_blobBaseFee', () => {
  let h: Harness

  beforeAll(async () => {
    h = await startHarness()
  })
  afterAll(() => h?.close())

  test('eth_baseFee is the next block’s base fee: what the next sealed block charges', async () => {
    await h.wallet.sendTransaction({ to: BOB, value: 1n, gas: 21_000n, ...h.fees() })
    await h.mine()
    const quoted = BigInt((await h.rpc('general', 'eth_baseFee', [])).result as string)
    expect((await h.rpc('flashblocks', 'eth_baseFee', [])).result).toBe(`0x${quoted.toString(16)}`)
    const next = await h.mine()
    expect(next.header.baseFeePerGas).toBe(quoted)
    const gasPrice = BigInt((await h.rpc('general', 'eth_gasPrice', [])).result as string)
    expect(gasPrice).toBeGreaterThan(BigInt((await h.rpc('general', 'eth_baseFee', [])).result as string))
  })

  test('eth_blobBaseFee is the minimum of 1 wei on a chain without blobs', async () => {
    for (const endpoint of ['general', 'flashblocks'] as const)
      expect((await h.rpc(endpoint, 'eth_blobBaseFee', [])).result).toBe('0x1')
  })
})
