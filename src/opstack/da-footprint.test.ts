import { describe, expect, test } from 'vitest'
import { createBlockHeader } from '@ethereumjs/block'
import { hexToBytes, type Hex } from 'viem'
import vectors from './l1-fee.vectors.json' with { type: 'json' }
import { createChainCommon } from '../evm/chain-common.js'
import { nextBaseFee } from './base-fee.js'
import { daFootprint, daUsageEstimate, gasMetered } from './da-footprint.js'

const bytes = (hex: string) => hexToBytes(hex as Hex)
const common = createChainCommon({ chainId: 196, gasLimit: 30_000_000n, baseFee: 1_000_000_000n })
const header = (gasUsed: bigint, blobGasUsed: bigint) =>
  createBlockHeader(
    { number: 1n, gasLimit: 30_000_000n, gasUsed, blobGasUsed, excessBlobGas: 0n, baseFeePerGas: 1_000_000_000n },
    { common },
  )

describe('Jovian DA footprint', () => {
  test('a small transaction counts the 100-byte minimum and a deposit counts nothing', () => {
    expect(daUsageEstimate(bytes('0xfacade'))).toBe(100n)
    expect(daUsageEstimate(bytes('0x7efacade'))).toBe(0n)
  })
  test('the footprint is the sum of DA usage times the scalar', () => {
    const big = bytes(vectors.fjordSample202.tx)
    expect(daFootprint([bytes('0xfacade'), big, bytes('0x7e00')], 400n)).toBe((100n + 126n) * 400n)
  })
  test('the base fee meters the larger of gasUsed and the footprint in blobGasUsed', () => {
    expect(gasMetered(header(21_000n, 90_400n))).toBe(90_400n)
    expect(gasMetered(header(2_000_000n, 90_400n))).toBe(2_000_000n)
  })
  test('a block whose footprint is over the gas target raises the next base fee as much as that much gas would', () => {
    const byGas = header(25_000_000n, 0n)
    const byDa = header(50_000n, 25_000_000n)
    expect(nextBaseFee(byDa)).toBe(byGas.calcNextBaseFee())
    expect(nextBaseFee(byDa)).toBeGreaterThan(1_000_000_000n)
  })
  test('a block under its target in both lowers the base fee by its gas alone', () => {
    const h = header(1_000_000n, 400_000n)
    expect(nextBaseFee(h)).toBe(header(1_000_000n, 0n).calcNextBaseFee())
    expect(nextBaseFee(h)).toBeLessThan(1_000_000_000n)
  })
})
