import { describe, expect, test } from 'vitest'
import { hexToBytes, type Hex } from 'viem'
import vectors from './l1-fee.vectors.json' with { type: 'json' }
import { flzCompressLength } from './fastlz.js'
import {
  ecotoneL1Fee,
  calldataGas,
  fjordEstimatedSize,
  fjordL1Cost,
  oracleL1FeeUpperBound,
  oracleL1Fee,
  oracleL1GasUsed,
} from './l1-fee.js'
import type { L1FeeParams } from '../domain/op-fee-params.js'
import { isthmusOperatorFee, jovianOperatorFee, operatorFee } from './operator-fee.js'

// Vectors: bluealloy/revm op-revm tests (commit in l1-fee.vectors.json), which take their fees from OP mainnet
// receipts; the small ones are the worked examples in those tests' comments.
const bytes = (hex: string) => hexToBytes(hex as Hex)
const thousand = (p: Partial<L1FeeParams> = {}): L1FeeParams => ({
  l1BaseFee: 1000n,
  blobBaseFee: 1000n,
  baseFeeScalar: 1000n,
  blobBaseFeeScalar: 1000n,
  ...p,
})

describe('FastLZ compressed length', () => {
  test('empty input compresses to nothing', () => expect(flzCompressLength(new Uint8Array())).toBe(0))
  test('a thousand zeros compress to 21 bytes', () => expect(flzCompressLength(new Uint8Array(1000))).toBe(21))
  test('a thousand 42s compress to 21 bytes', () => expect(flzCompressLength(new Uint8Array(1000).fill(42))).toBe(21))
  for (const c of vectors.flzCompressLength) {
    test(`${c.name} compresses to ${c.length} bytes`, () => expect(flzCompressLength(bytes(c.input))).toBe(c.length))
  }
  test('appending a new byte value to non-repeating input always grows the length', () => {
    let previous = 0
    for (let i = 1; i <= 256; i++) {
      const length = flzCompressLength(Uint8Array.from({ length: i }, (_, k) => k))
      expect(length).toBeGreaterThan(previous)
      previous = length
    }
  })
  test('an input compresses to the same length whatever was compressed before it', () => {
    // the repeating pattern fills the hash table with positions a later, shorter input could wrongly match
    const before = Uint8Array.from({ length: 4000 }, (_, k) => k % 7)
    const input = Uint8Array.from({ length: 300 }, (_, k) => (k * 13) % 7)
    const alone = flzCompressLength(input)
    flzCompressLength(before)
    expect(flzCompressLength(input)).toBe(alone)
    for (const c of vectors.flzCompressLength) {
      flzCompressLength(before)
      expect(flzCompressLength(bytes(c.input))).toBe(c.length)
    }
  })
})

describe('Fjord L1 fee', () => {
  test('a 3-byte input is charged the 100-byte minimum: 1700 wei at all-1000 parameters', () => {
    expect(fjordL1Cost(bytes('0xfacade'), thousand()).l1Fee).toBe(1700n)
    expect(fjordL1Cost(bytes('0xfacade'), thousand()).l1GasUsed).toBe(1600n)
  })
  test('the 202-byte-compressed sample costs 2148 wei (estimated size 126 387 400)', () => {
    const tx = bytes(vectors.fjordSample202.tx)
    expect(fjordEstimatedSize(flzCompressLength(tx))).toBe(126_387_400n)
    expect(fjordL1Cost(tx, thousand()).l1Fee).toBe(2148n)
  })
  test('OP mainnet Fjord block 124665056 tx 2: l1GasUsed 4471 and l1Fee 0x5bf1ab43d, as its receipt says', () => {
    const cost = fjordL1Cost(bytes(vectors.fjordOpMainnet124665056.tx), {
      l1BaseFee: 1_055_991_687n,
      baseFeeScalar: 5227n,
      blobBaseFee: 1n,
      blobBaseFeeScalar: 1_014_213n,
    })
    expect(cost.l1GasUsed).toBe(4471n)
    expect(cost.l1Fee).toBe(0x5bf1ab43dn)
  })
  test('deposits and empty input pay no L1 fee', () => {
    expect(fjordL1Cost(bytes('0x7efacade'), thousand()).l1Fee).toBe(0n)
    expect(fjordL1Cost(new Uint8Array(), thousand()).l1Fee).toBe(0n)
  })
  test('all-zero L1 prices give a zero fee', () => {
    expect(
      fjordL1Cost(bytes(vectors.fjordSample202.tx), {
        l1BaseFee: 0n,
        blobBaseFee: 0n,
        baseFeeScalar: 1n,
        blobBaseFeeScalar: 1n,
      }).l1Fee,
    ).toBe(0n)
  })
  test("the oracle's getL1Fee adds 68 signature bytes before estimating", () => {
    const unsigned = new Uint8Array(400).map((_, i) => (i * 7919) & 0xff)
    const withSig = fjordEstimatedSize(flzCompressLength(unsigned) + 68)
    expect(oracleL1Fee(unsigned, thousand())).toBe((withSig * 17_000_000n) / 10n ** 12n)
    expect(oracleL1GasUsed(unsigned)).toBe((withSig * 16n) / 1_000_000n)
  })
  test('the upper bound is never below the fee of random bytes of that size', () => {
    const unsigned = new Uint8Array(1000).map((_, i) => (i * 2654435761) >>> 24)
    expect(oracleL1FeeUpperBound(1000n, thousand())).toBeGreaterThanOrEqual(oracleL1Fee(unsigned, thousand()))
  })
})

describe('Ecotone L1 fee', () => {
  test('0xFACADE costs 51 wei at all-1000 parameters (48 calldata gas)', () => {
    expect(calldataGas(bytes('0xfacade'))).toBe(48n)
    expect(ecotoneL1Fee(bytes('0xfacade'), thousand())).toBe(51n)
  })
  test('OP mainnet Ecotone block 118024092 tx 2: l1GasUsed 2456 and l1Fee 7306020222001, as its receipt says', () => {
    const tx = bytes(vectors.ecotoneOpMainnet118024092.tx)
    expect(calldataGas(tx)).toBe(2456n)
    expect(
      ecotoneL1Fee(tx, {
        l1BaseFee: 0xaf39ac327n,
        baseFeeScalar: 1368n,
        blobBaseFee: 0xd5ea528d2n,
        blobBaseFeeScalar: 810_949n,
      }),
    ).toBe(7_306_020_222_001n)
  })
})

describe('operator fee', () => {
  const p = { operatorFeeScalar: 1000n, operatorFeeConstant: 10n }
  test('Isthmus charges gas·scalar/1e6 + constant: 11 wei for 1000 gas', () =>
    expect(isthmusOperatorFee(1000n, p)).toBe(11n))
  test('Jovian charges gas·scalar·100 + constant: 100 000 010 wei for 1000 gas', () =>
    expect(jovianOperatorFee(1000n, p)).toBe(100_000_010n))
  test('zero scalar and constant charge nothing', () =>
    expect(operatorFee(1000n, { operatorFeeScalar: 0n, operatorFeeConstant: 0n })).toBe(0n))
  test('the Jovian rule is the default', () => expect(operatorFee(1000n, p)).toBe(100_000_010n))
})
