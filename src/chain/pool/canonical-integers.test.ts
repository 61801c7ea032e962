import { RLP } from '@ethereumjs/rlp'
import { hexToBytes } from '@ethereumjs/util'
import type { Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { DEV_KEY_1, DEV_KEY_2 } from '../../../test/support/dev-keys.js'
import { withPaddedField } from '../../../test/support/padded-integer.js'
import { NonCanonicalIntegerError } from '../../errors.js'
import { refuseNonCanonicalIntegers } from './canonical-integers.js'

const signer = privateKeyToAccount(DEV_KEY_1)
const authority = privateKeyToAccount(DEV_KEY_2)
const to: Hex = '0x000000000000000000000000000000000000beef'
const fees = { maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 10n ** 9n }
const base = { chainId: 196, nonce: 3, to, value: 5n, gas: 60_000n, data: '0x1234' as Hex }

async function signedOfEveryType(): Promise<Record<string, Uint8Array>> {
  const authorization = await authority.signAuthorization({ address: to, chainId: 196, nonce: 7 })
  const signed = {
    legacy: await signer.signTransaction({ ...base, type: 'legacy', gasPrice: 10n ** 10n }),
    eip2930: await signer.signTransaction({ ...base, type: 'eip2930', gasPrice: 10n ** 10n }),
    eip1559: await signer.signTransaction({ ...base, type: 'eip1559', ...fees }),
    eip7702: await signer.signTransaction({ ...base, type: 'eip7702', ...fees, authorizationList: [authorization] }),
  }
  return Object.fromEntries(Object.entries(signed).map(([type, raw]) => [type, hexToBytes(raw)]))
}

const BIG = '*big.Int'
const U64 = 'uint64'
const U256 = '*uint256.Int'

/** Every integer field geth decodes, by RLP position: what its error names. */
const FIELDS: Record<string, [at: number | number[], goType: string, field: string][]> = {
  legacy: [
    [0, U64, '(types.LegacyTx).Nonce'],
    [1, BIG, '(types.LegacyTx).GasPrice'],
    [2, U64, '(types.LegacyTx).Gas'],
    [4, BIG, '(types.LegacyTx).Value'],
    [6, BIG, '(types.LegacyTx).V'],
    [7, BIG, '(types.LegacyTx).R'],
    [8, BIG, '(types.LegacyTx).S'],
  ],
  eip2930: [
    [0, BIG, '(types.AccessListTx).ChainID'],
    [1, U64, '(types.AccessListTx).Nonce'],
    [2, BIG, '(types.AccessListTx).GasPrice'],
    [3, U64, '(types.AccessListTx).Gas'],
    [5, BIG, '(types.AccessListTx).Value'],
    [8, BIG, '(types.AccessListTx).V'],
    [9, BIG, '(types.AccessListTx).R'],
    [10, BIG, '(types.AccessListTx).S'],
  ],
  eip1559: [
    [0, BIG, '(types.DynamicFeeTx).ChainID'],
    [1, U64, '(types.DynamicFeeTx).Nonce'],
    [2, BIG, '(types.DynamicFeeTx).GasTipCap'],
    [3, BIG, '(types.DynamicFeeTx).GasFeeCap'],
    [4, U64, '(types.DynamicFeeTx).Gas'],
    [6, BIG, '(types.DynamicFeeTx).Value'],
    [9, BIG, '(types.DynamicFeeTx).V'],
    [10, BIG, '(types.DynamicFeeTx).R'],
    [11, BIG, '(types.DynamicFeeTx).S'],
  ],
  eip7702: [
    [0, U256, '(types.SetCodeTx).ChainID'],
    [1, U64, '(types.SetCodeTx).Nonce'],
    [2, U256, '(types.SetCodeTx).GasTipCap'],
    [3, U256, '(types.SetCodeTx).GasFeeCap'],
    [4, U64, '(types.SetCodeTx).Gas'],
    [6, U256, '(types.SetCodeTx).Value'],
    [[9, 0, 0], U256, '(types.SetCodeTx).AuthList[0].ChainID'],
    [[9, 0, 2], U64, '(types.SetCodeTx).AuthList[0].Nonce'],
    [[9, 0, 3], 'uint8', '(types.SetCodeTx).AuthList[0].V'],
    [[9, 0, 4], U256, '(types.SetCodeTx).AuthList[0].R'],
    [[9, 0, 5], U256, '(types.SetCodeTx).AuthList[0].S'],
    [10, U256, '(types.SetCodeTx).V'],
    [11, U256, '(types.SetCodeTx).R'],
    [12, U256, '(types.SetCodeTx).S'],
  ],
}

function refusal(raw: Uint8Array): NonCanonicalIntegerError | undefined {
  try {
    refuseNonCanonicalIntegers(raw)
  } catch (err) {
    return err as NonCanonicalIntegerError
  }
  return undefined
}

describe('a client transaction with a padded RLP integer', () => {
  test("is refused in geth's words for every integer field of every type the chain runs", async () => {
    const signed = await signedOfEveryType()
    for (const [type, fields] of Object.entries(FIELDS)) {
      for (const [at, goType, field] of fields) {
        const err = refusal(withPaddedField(signed[type]!, at))
        expect(err, `${type} ${field}`).toBeInstanceOf(NonCanonicalIntegerError)
        expect(err!.toJSON()).toEqual({
          code: -32000,
          message: `rlp: non-canonical integer (leading zero bytes) for ${goType}, decoding into ${field}`,
        })
      }
    }
  })

  test('is named by its first padded field, in the order geth decodes (an authorization before the signature)', async () => {
    const { eip7702 } = await signedOfEveryType()
    const twice = withPaddedField(withPaddedField(eip7702!, 12), [9, 0, 2])
    expect(refusal(twice)!.message).toMatch(/decoding into \(types\.SetCodeTx\)\.AuthList\[0\]\.Nonce$/)
  })

  test('is refused when a zero is written as the byte 0x00 rather than the empty string', async () => {
    const { eip1559 } = await signedOfEveryType()
    const fields = RLP.decode(eip1559!.subarray(1)) as Uint8Array[]
    fields[6] = Uint8Array.of(0) // value 0
    const raw = Uint8Array.of(2, ...RLP.encode(fields))
    expect(refusal(raw)!.message).toMatch(/for \*big\.Int, decoding into \(types\.DynamicFeeTx\)\.Value$/)
  })
})

describe('what the canonical-integer check lets through', () => {
  test('canonical transactions of every type', async () => {
    for (const raw of Object.values(await signedOfEveryType())) expect(refusal(raw)).toBeUndefined()
  })

  test('bytes that are not a transaction of a type the chain runs, left to decoding to refuse in its words', () => {
    for (const raw of [
      new Uint8Array(0),
      Uint8Array.of(0x02, 0xc1), // not RLP
      Uint8Array.of(0x02, 0x81, 0x00), // a string, not a list
      Uint8Array.of(0x03, 0xc2, 0x00, 0x01), // a blob transaction: its own layout
      Uint8Array.of(0x7e, 0xc1, 0x00), // a deposit: decodeDeposit names its padded integers itself
    ]) {
      expect(refusal(raw)).toBeUndefined()
    }
  })
})
