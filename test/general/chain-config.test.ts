import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type Harness, startHarness } from '../support/harness.js'

describe('eth_config and eth_capabilities', () => {
  let h: Harness

  beforeAll(async () => {
    h = await startHarness()
    await h.mine()
  })
  afterAll(() => h?.close())

  test("eth_config reports Prague rules since X Layer mainnet's Jovian on chain 196 with its fork hash, nothing scheduled", async () => {
    const reply = await h.rpc('general', 'eth_config', [])
    const config = reply.result as { current: Record<string, unknown>; next: unknown; last: unknown }
    expect(config.next).toBeNull()
    expect(config.last).toBeNull()
    expect(config.current).toMatchObject({
      // Jovian (okx/xlayer-reth b85080e crates/chainspec/src/lib.rs XLAYER_MAINNET_JOVIAN_TIMESTAMP), before this
      // chain's genesis, so the fork hash is genesis' own
      activationTime: 1_764_691_201,
      chainId: '0xc4',
      blobSchedule: { target: 6, max: 9, baseFeeUpdateFraction: 5007716 },
    })
    const genesis = h.chain.common.copy()
    expect(config.current.forkId).toBe(genesis.forkHash('prague', h.chain.store.byNumber(0n)!.hash))
    expect(Object.keys(config.current.precompiles as object)).toHaveLength(17)
    expect((await h.rpc('flashblocks', 'eth_config', [])).result).toEqual(config)
  })

  test('eth_capabilities names the latest block as head and serves everything from genesis', async () => {
    const head = await h.general.getBlock()
    const reply = await h.rpc('flashblocks', 'eth_capabilities', [])
    const capabilities = reply.result as Record<string, unknown>
    expect(capabilities.head).toEqual({ number: `0x${head.number.toString(16)}`, hash: head.hash })
    for (const resource of ['state', 'tx', 'logs', 'receipts', 'blocks', 'stateproofs'])
      expect(capabilities[resource]).toEqual({ disabled: false, oldestBlock: '0x0' })
  })
})
