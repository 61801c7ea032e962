import { describe, expect, test } from 'vitest'
import { hexToBytes, toHex, type Hex } from 'viem'
import { depositHash, encodeDeposit } from '../domain/deposit-encoding.js'
import { decodeL1InfoCalldata, encodeL1InfoCalldata, l1InfoDeposit, l1InfoSelector } from './l1-info.js'
import { DEFAULT_L1_SETTINGS, L1_BLOCK_TIME, l1OriginAt, nextL1Info } from './l1-origin.js'

const bytes = (hex: string) => hexToBytes(hex as Hex)

// op-geth core/types/receipt_test.go TestDeriveOptimismJovianTxReceipts: baseFeeScalar 2, blobBaseFeeScalar 3,
// sequence/time/number 1234, basefee 1000e6, blobBaseFee 10e6, hash and batcherHash 1234,
// operatorFeeScalar 1439103868, operatorFeeConstant 1256417826609331460, daFootprintGasScalar 400
const OP_GETH_JOVIAN =
  '0x3db6be2b000000020000000300000000000004d200000000000004d200000000000004d2000000000000000000000000000000000000000000000000000000003b9aca00000000000000000000000000000000000000000000000000000000000098968000000000000000000000000000000000000000000000000000000000000004d200000000000000000000000000000000000000000000000000000000000004d255c6fb7c116fb15b44847d040190'

// Base mainnet block 0x2b9d75e, transaction 0 (its L1-info deposit) as op-reth serves it
const BASE_L1_INFO = {
  sourceHash: '0xaa943be17c137fece0613f1590c9ce4f4060e4773cbd6cdd8872797a2929574c',
  input:
    '0x3db6be2b000008dd00101c1200000000000000000000000069fe0aef00000000017e413a0000000000000000000000000000000000000000000000000000000035d3993f0000000000000000000000000000000000000000000000000000000003313bde9769893c3700063346fb55688ff06a43e5a3915877d033e706853182b822acef0000000000000000000000005050f69a9786f081509234f1a7f4684b5e5b76c90000000000000000000000000094',
  hash: '0xbfd4ecde1bca0d8417de482af8db2121881b574b6250b4e7cb7deea2e78d5086',
}

describe('L1-info calldata', () => {
  test('the selectors are the ones in the specs tables', () => {
    expect(toHex(l1InfoSelector('ecotone'))).toBe('0x440a5e20')
    expect(toHex(l1InfoSelector('isthmus'))).toBe('0x098999be')
    expect(toHex(l1InfoSelector('jovian'))).toBe('0x3db6be2b')
  })

  test("op-geth's Jovian test payload decodes to its stated values and encodes back byte for byte", () => {
    const { format, info } = decodeL1InfoCalldata(bytes(OP_GETH_JOVIAN))
    expect(format).toBe('jovian')
    expect(info).toMatchObject({
      baseFeeScalar: 2n,
      blobBaseFeeScalar: 3n,
      sequenceNumber: 1234n,
      timestamp: 1234n,
      number: 1234n,
      l1BaseFee: 1_000_000_000n,
      blobBaseFee: 10_000_000n,
      operatorFeeScalar: 1_439_103_868n,
      operatorFeeConstant: 1_256_417_826_609_331_460n,
      daFootprintGasScalar: 400n,
    })
    expect(toHex(encodeL1InfoCalldata(info, 'jovian'))).toBe(OP_GETH_JOVIAN)
  })

  test('Isthmus drops the DA scalar and Ecotone the operator fee, at the lengths the specs give', () => {
    const { info } = decodeL1InfoCalldata(bytes(OP_GETH_JOVIAN))
    const isthmus = encodeL1InfoCalldata(info, 'isthmus')
    const ecotone = encodeL1InfoCalldata(info, 'ecotone')
    expect([isthmus.length, ecotone.length]).toEqual([176, 164])
    expect(toHex(isthmus.subarray(4))).toBe(`0x${OP_GETH_JOVIAN.slice(10, 2 + 176 * 2)}`)
    expect(decodeL1InfoCalldata(isthmus).info.daFootprintGasScalar).toBe(0n)
    expect(decodeL1InfoCalldata(ecotone).info.operatorFeeScalar).toBe(0n)
  })

  test('calldata of the wrong length for its selector is a -32602', () => {
    expect(() => decodeL1InfoCalldata(bytes(OP_GETH_JOVIAN).subarray(0, 177))).toThrow(
      /jovian calldata is 178 bytes, got 177/,
    )
  })
})

describe('L1-info deposit', () => {
  test('a real Base L1-info deposit rebuilt from its calldata hashes to its on-chain hash', () => {
    const { info } = decodeL1InfoCalldata(bytes(BASE_L1_INFO.input))
    const deposit = l1InfoDeposit(info, 'jovian')
    expect(toHex(deposit.sourceHash)).toBe(BASE_L1_INFO.sourceHash)
    expect(toHex(depositHash(deposit))).toBe(BASE_L1_INFO.hash)
    expect(encodeDeposit(deposit)[0]).toBe(0x7e)
  })

  test('it comes from the depositor account, goes to L1Block with 1 000 000 gas, and mints nothing', () => {
    const deposit = l1InfoDeposit(nextL1Info(1_764_691_201n, undefined))
    expect(toHex(deposit.from)).toBe('0xdeaddeaddeaddeaddeaddeaddeaddeaddead0001')
    expect(toHex(deposit.to!)).toBe('0x4200000000000000000000000000000000000015')
    expect([deposit.gas, deposit.mint, deposit.value, deposit.isSystemTx]).toEqual([1_000_000n, 0n, 0n, false])
  })
})

describe('simulated L1 origin', () => {
  test('the origin advances every 12 seconds and its time is never after the L2 block', () => {
    const t = 1_764_691_201n
    const a = l1OriginAt(t)
    expect(a.timestamp <= t && t - a.timestamp < L1_BLOCK_TIME).toBe(true)
    expect(l1OriginAt(a.timestamp + L1_BLOCK_TIME).number).toBe(a.number + 1n)
    expect(l1OriginAt(a.timestamp + L1_BLOCK_TIME - 1n).number).toBe(a.number)
  })

  test('the sequence number counts L2 blocks within an origin and restarts at a new one', () => {
    const start = l1OriginAt(1_764_691_201n).timestamp
    const first = nextL1Info(start, undefined)
    const second = nextL1Info(start + 1n, first)
    const third = nextL1Info(start + 12n, second)
    expect([first.sequenceNumber, second.sequenceNumber, third.sequenceNumber]).toEqual([0n, 1n, 0n])
    expect(third.number).toBe(first.number + 1n)
    expect(toHex(third.hash)).not.toBe(toHex(first.hash))
  })

  test('the default settings encode in the Jovian format', () => {
    const info = nextL1Info(1_764_691_201n, undefined)
    expect(decodeL1InfoCalldata(encodeL1InfoCalldata(info)).info).toEqual({
      ...info,
      ...DEFAULT_L1_SETTINGS,
      batcherHash: info.batcherHash,
    })
  })
})
