import { describe, expect, test } from 'vitest'
import { keccak256, toHex, hexToBytes, type Hex } from 'viem'
import { parseTransaction, serializeTransaction } from 'viem/op-stack'

type TransactionSerializableDeposit = {
  type?: string
  sourceHash?: Hex
  from?: Hex
  to?: Hex | null
  mint?: bigint
  value?: bigint
  gas?: bigint
  isSystemTx?: boolean
}
import { RLP } from '@ethereumjs/rlp'
import { InvalidParamsError } from '../errors.js'
import { decodeDeposit, depositHash, encodeDeposit, type DepositTx } from './deposit-encoding.js'
import { formatDepositTransaction } from '../format/deposit.js'
import { l1InfoSourceHash, userDepositSourceHash } from '../opstack/source-hash.js'

const bytes = (hex: string) => hexToBytes(hex as Hex)

const cases: Record<string, DepositTx> = {
  'a call with mint and value': {
    sourceHash: bytes(`0x${'11'.repeat(32)}`),
    from: bytes('0x977f82a600a1414e583f7f13623f1ac5d58b1c0b'),
    to: bytes('0x4200000000000000000000000000000000000016'),
    mint: 10n ** 18n,
    value: 5n * 10n ** 17n,
    gas: 100_000n,
    isSystemTx: false,
    data: bytes('0xdeadbeef'),
  },
  'a contract creation without mint': {
    sourceHash: bytes(`0x${'ab'.repeat(32)}`),
    from: bytes('0xdeaddeaddeaddeaddeaddeaddeaddeaddead0001'),
    mint: 0n,
    value: 0n,
    gas: 1_000_000n,
    isSystemTx: false,
    data: bytes('0x6080604052'),
  },
  'a system transaction with empty data': {
    sourceHash: bytes(`0x${'01'.repeat(32)}`),
    from: bytes('0xdeaddeaddeaddeaddeaddeaddeaddeaddead0001'),
    to: bytes('0x4200000000000000000000000000000000000015'),
    mint: 0n,
    value: 0n,
    gas: 0n,
    isSystemTx: true,
    data: new Uint8Array(),
  },
}

describe('deposit transaction codec', () => {
  for (const [name, tx] of Object.entries(cases)) {
    test(`${name} encodes to the bytes viem's op-stack serializer writes and hashes alike`, () => {
      const ours = toHex(encodeDeposit(tx))
      const viems = serializeTransaction({
        type: 'deposit',
        sourceHash: toHex(tx.sourceHash),
        from: toHex(tx.from),
        to: tx.to ? toHex(tx.to) : undefined,
        mint: tx.mint,
        value: tx.value,
        gas: tx.gas,
        isSystemTx: tx.isSystemTx,
        data: tx.data.length ? toHex(tx.data) : undefined,
      })
      expect(ours).toBe(viems)
      expect(toHex(depositHash(tx))).toBe(keccak256(viems))
    })

    test(`${name} decodes from viem's bytes to the same fields viem parses`, () => {
      const raw = encodeDeposit(tx)
      const parsed = parseTransaction(toHex(raw)) as unknown as TransactionSerializableDeposit
      const decoded = decodeDeposit(raw)
      expect(decoded).toEqual({ ...tx, to: tx.to })
      expect(parsed.type).toBe('deposit')
      expect(parsed.sourceHash).toBe(toHex(tx.sourceHash))
      expect(parsed.from).toBe(toHex(tx.from))
      expect(parsed.to).toBe(tx.to ? toHex(tx.to) : undefined)
      expect(parsed.mint ?? 0n).toBe(tx.mint)
      expect(parsed.value ?? 0n).toBe(tx.value)
      expect(parsed.gas ?? 0n).toBe(tx.gas)
      expect(parsed.isSystemTx ?? false).toBe(tx.isSystemTx)
      expect(toHex(depositHash(raw))).toBe(toHex(depositHash(decoded)))
    })
  }
})

describe('deposit validation', () => {
  const good = cases['a call with mint and value']
  const fields = (tx: DepositTx) => [
    tx.sourceHash,
    tx.from,
    tx.to ?? new Uint8Array(),
    Uint8Array.of(1),
    new Uint8Array(),
    Uint8Array.of(0x10),
    new Uint8Array(),
    tx.data,
  ]
  const raw = (items: (Uint8Array | Uint8Array[])[]) => Uint8Array.from([0x7e, ...RLP.encode(items)])
  const reject = (input: Uint8Array, message: RegExp) => {
    let error: unknown
    try {
      decodeDeposit(input)
    } catch (err) {
      error = err
    }
    expect(error).toBeInstanceOf(InvalidParamsError)
    expect((error as InvalidParamsError).code).toBe(-32602)
    expect((error as Error).message).toMatch(message)
  }

  test('a well-formed list decodes', () => {
    expect(decodeDeposit(raw(fields(good))).gas).toBe(0x10n)
  })
  test('a short sourceHash is rejected naming sourceHash', () => {
    const f = fields(good)
    f[0] = new Uint8Array(31)
    reject(raw(f), /sourceHash must be 32 bytes/)
  })
  test('a 19-byte from is rejected naming from', () => {
    const f = fields(good)
    f[1] = new Uint8Array(19)
    reject(raw(f), /from must be a 20-byte address/)
  })
  test('a 21-byte to is rejected naming to', () => {
    const f = fields(good)
    f[2] = new Uint8Array(21)
    reject(raw(f), /to must be a 20-byte address/)
  })
  test('a mint with a leading zero byte is rejected as non-canonical', () => {
    const f = fields(good)
    f[3] = Uint8Array.of(0, 1)
    reject(raw(f), /mint has leading zero bytes/)
  })
  test('a gas over uint64 is rejected naming gas', () => {
    const f = fields(good)
    f[5] = new Uint8Array(9).fill(1)
    reject(raw(f), /gas overflows uint64/)
  })
  test('an isSystemTx of 2 is rejected naming isSystemTx', () => {
    const f = fields(good)
    f[6] = Uint8Array.of(2)
    reject(raw(f), /isSystemTx must be a boolean/)
  })
  test('seven fields are rejected with the expected field list', () => {
    reject(raw(fields(good).slice(0, 7)), /expected 8 fields/)
  })
  test('a nested list in place of data is rejected naming data', () => {
    const f: (Uint8Array | Uint8Array[])[] = fields(good)
    f[7] = [Uint8Array.of(1)]
    reject(raw(f), /data must be a byte string/)
  })
  test('trailing bytes after the list are rejected', () => {
    reject(Uint8Array.from([...raw(fields(good)), 0]), /rlp/)
  })
  test('a type byte other than 0x7e is rejected', () => {
    reject(Uint8Array.from([0x02, ...RLP.encode(fields(good))]), /type must be 0x7e/)
  })
})

describe('deposit JSON', () => {
  test('an executed deposit shows sourceHash, mint, nonce and receipt version like op-geth, with zero signature', () => {
    const tx = cases['a system transaction with empty data']
    const json = formatDepositTransaction(
      tx,
      depositHash(tx),
      { blockHash: new Uint8Array(32), blockNumber: 5n, index: 0 },
      { depositNonce: 7n },
    )
    expect(json).toMatchObject({
      type: '0x7e',
      sourceHash: toHex(tx.sourceHash),
      mint: '0x0',
      isSystemTx: true,
      nonce: '0x7',
      gasPrice: '0x0',
      v: '0x0',
      r: '0x0',
      s: '0x0',
      depositReceiptVersion: '0x1',
      blockNumber: '0x5',
      transactionIndex: '0x0',
      to: '0x4200000000000000000000000000000000000015',
    })
    expect(json).not.toHaveProperty('chainId')
    expect(json).not.toHaveProperty('yParity')
  })
  test('a user deposit omits isSystemTx, as op-geth does when it is false', () => {
    const tx = cases['a call with mint and value']
    expect(formatDepositTransaction(tx, depositHash(tx))).not.toHaveProperty('isSystemTx')
  })
})

describe('source hashes', () => {
  test('the user and L1-info domains give different hashes for the same L1 block and index', () => {
    const h = bytes(`0x${'22'.repeat(32)}`)
    expect(toHex(userDepositSourceHash(h, 0n))).not.toBe(toHex(l1InfoSourceHash(h, 0n)))
  })
  test('the L1-info source hash is keccak(bytes32(1) ++ keccak(l1Hash ++ bytes32(seq)))', () => {
    const h = `0x${'33'.repeat(32)}` as Hex
    const inner = keccak256(`${h}${(5).toString(16).padStart(64, '0')}` as Hex)
    const expected = keccak256(`0x${'1'.padStart(64, '0')}${inner.slice(2)}` as Hex)
    expect(toHex(l1InfoSourceHash(bytes(h), 5n))).toBe(expected)
  })
})
