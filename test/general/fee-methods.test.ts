import { JsonRpcProvider, Network } from 'ethers'
import { toHex } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { nextBaseFee as nextBlockBaseFee } from '../../src/opstack/base-fee.js'
import { BOB } from '../support/dev-keys.js'
import { type Harness, startHarness } from '../support/harness.js'

const GWEI = 10n ** 9n

/** eth_gasPrice, eth_maxPriorityFeePerGas and eth_feeHistory over the wire, and as viem and ethers use them. */
describe('fee methods', () => {
  let h: Harness

  beforeAll(async () => {
    h = await startHarness()
    await h.mine()
    // one block with tips of 2, 3 and 4 gwei
    for (const tip of [2n, 3n, 4n]) {
      await h.wallet.sendTransaction({
        to: BOB,
        value: 1n,
        gas: 21_000n,
        ...h.fees(),
        maxPriorityFeePerGas: tip * GWEI,
        maxFeePerGas: 50n * GWEI,
      })
    }
    await h.mine()
  })
  afterAll(() => h?.close())

  // Jovian: metered on max(gasUsed, DA footprint)
  const nextBaseFee = () => nextBlockBaseFee(h.chain.store.latest().header)

  test("prices gas at the next block's base fee plus the suggested tip", async () => {
    const tip = BigInt((await h.rpc('general', 'eth_maxPriorityFeePerGas', [])).result as string)
    // samples: 1 gwei for each empty block (genesis, block 1), then 2, 3 and 4 gwei: the 60th percentile is 2 gwei
    expect(tip).toBe(2n * GWEI)
    expect(await h.general.getGasPrice()).toBe(nextBaseFee() + tip)
    expect(await h.flash.getGasPrice()).toBe(nextBaseFee() + tip)
  })

  test('gives viem and ethers fee estimates a transaction can be sent with', async () => {
    const viemFees = await h.general.estimateFeesPerGas()
    expect(viemFees.maxPriorityFeePerGas).toBe(2n * GWEI)
    expect(viemFees.maxFeePerGas).toBeGreaterThan(nextBaseFee())
    const provider = new JsonRpcProvider(h.service.url, Network.from(196), { staticNetwork: true, cacheTimeout: -1 })
    const ethersFees = await provider.getFeeData()
    expect(ethersFees.maxPriorityFeePerGas).toBe(2n * GWEI)
    expect(ethersFees.gasPrice).toBe(nextBaseFee() + 2n * GWEI)
    provider.destroy()
  })

  test('reports fee history with the next base fee, gas ratios and per-percentile tips', async () => {
    const latest = h.chain.store.latest()
    const { result } = await h.rpc('general', 'eth_feeHistory', ['0x3', 'latest', [0, 50, 100]])
    expect(result).toEqual({
      oldestBlock: toHex(latest.number - 2n),
      baseFeePerGas: [latest.number - 2n, latest.number - 1n, latest.number]
        .map((n) => toHex(h.chain.store.byNumber(n)!.header.baseFeePerGas!))
        .concat(toHex(nextBaseFee())),
      // every block holds its L1-info deposit; the newest also three 21 000-gas transfers
      gasUsedRatio: [latest.number - 2n, latest.number - 1n, latest.number].map(
        (n) => Number(h.chain.store.byNumber(n)!.header.gasUsed) / Number(h.service.config.gasLimit),
      ),
      baseFeePerBlobGas: ['0x1', '0x1', '0x1', '0x1'],
      blobGasUsedRatio: [0, 0, 0],
      reward: [
        ['0x0', '0x0', '0x0'],
        ['0x0', '0x0', '0x0'],
        // the deposit (tip 0) holds the lowest 40% of the gas
        ['0x0', toHex(2n * GWEI), toHex(4n * GWEI)],
      ],
    })
  })

  test('lets viem read fee history with a decimal count, clamped to the blocks that exist', async () => {
    const history = await h.general.getFeeHistory({ blockCount: 100, rewardPercentiles: [25] })
    expect(history.oldestBlock).toBe(0n)
    expect(history.baseFeePerGas).toHaveLength(Number(h.chain.store.height) + 2)
    expect(history.reward).toHaveLength(Number(h.chain.store.height) + 1)
  })

  test("answers geth's errors for a block past the head and for percentiles out of order", async () => {
    const beyond = toHex(h.chain.store.height + 5n)
    expect((await h.rpc('general', 'eth_feeHistory', ['0x1', beyond, []])).error).toEqual({
      code: -32000,
      message: `request beyond head block: requested ${h.chain.store.height + 5n}, head ${h.chain.store.height}`,
    })
    expect((await h.rpc('general', 'eth_feeHistory', ['0x1', 'latest', [50, 10]])).error).toEqual({
      code: -32000,
      message: 'invalid reward percentile: #0:50 > #1:10',
    })
    expect((await h.rpc('general', 'eth_feeHistory', ['0x1', 'latest', [101]])).error?.code).toBe(-32602)
  })

  test('reports the pending block under `pending` on /flashblocks', async () => {
    await h.wallet.sendTransaction({ to: BOB, value: 1n, gas: 21_000n, ...h.fees() })
    await h.chain.buildNow()
    const { result } = (await h.rpc('flashblocks', 'eth_feeHistory', ['0x1', 'pending', [50]])) as {
      result: { oldestBlock: string; gasUsedRatio: number[] }
    }
    expect(result.oldestBlock).toBe(toHex(h.chain.store.height + 1n))
    const pending = (await h.rpc('flashblocks', 'eth_getBlockByNumber', ['pending', false])).result as {
      gasUsed: string
    }
    expect(BigInt(pending.gasUsed)).toBeGreaterThan(21_000n) // the L1-info deposit and the transfer
    expect(result.gasUsedRatio).toEqual([Number(BigInt(pending.gasUsed)) / Number(h.service.config.gasLimit)])
    const general = (await h.rpc('general', 'eth_feeHistory', ['0x1', 'pending', [50]])) as {
      result: { oldestBlock: string }
    }
    expect(general.result.oldestBlock).toBe(toHex(h.chain.store.height))
    await h.chain.sealNow()
  })
})
