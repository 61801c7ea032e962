import { createTxFromRLP, type TypedTransaction } from '@ethereumjs/tx'
import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import type { Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { DEV_KEY_1, DEV_KEY_2 } from '../../../test/support/dev-keys.js'
import { withPaddedChainId } from '../../../test/support/padded-integer.js'
import { createChainCommon } from '../../evm/chain-common.js'
import { keccak256 } from '../../evm/crypto.js'
import { decodeChainTx, impersonatedTx } from '../dev/impersonation.js'
import { SealedTx } from './sealed-tx.js'

const common = createChainCommon({ chainId: 196, gasLimit: 30_000_000n, baseFee: 1_000_000n })
const signer = privateKeyToAccount(DEV_KEY_1)
const authority = privateKeyToAccount(DEV_KEY_2)
const to: Hex = '0x000000000000000000000000000000000000beef'
const X: Hex = '0x00000000000000000000000000000000000a11ce'
const fees = { maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 10n ** 9n }
const base = { chainId: 196, nonce: 3, to, value: 5n, gas: 60_000n, data: '0x1234' as Hex }
const accessList = [{ address: to, storageKeys: [`0x${'01'.repeat(32)}` as Hex] }]

/** The EIP-2718 bytes of a signed transaction of each type this chain runs. */
async function signedOfEveryType(): Promise<Record<string, Uint8Array>> {
  const authorization = await authority.signAuthorization({ address: to, chainId: 196, nonce: 0 })
  const impersonated = impersonatedTx(
    { type: 2, nonce: 3n, gas: 60_000n, chainId: 196n, from: hexToBytes(X), to: hexToBytes(to), value: 5n, ...fees },
    common,
  )
  const signed = {
    legacy: await signer.signTransaction({ ...base, type: 'legacy', gasPrice: 10n ** 10n }),
    eip2930: await signer.signTransaction({ ...base, type: 'eip2930', gasPrice: 10n ** 10n, accessList }),
    eip1559: await signer.signTransaction({ ...base, type: 'eip1559', ...fees, accessList }),
    eip7702: await signer.signTransaction({ ...base, type: 'eip7702', ...fees, authorizationList: [authorization] }),
  }
  return {
    ...Object.fromEntries(Object.entries(signed).map(([type, raw]) => [type, hexToBytes(raw)])),
    impersonated: impersonated.raw,
  }
}

/** What a SealedTx must answer: the record admission made of the same bytes. */
function expectSameAsAdmitted(raw: Uint8Array) {
  const admitted = decodeChainTx(raw, common)
  const sealed = new SealedTx(raw, admitted.sender, common)
  expect(bytesToHex(sealed.hash)).toBe(bytesToHex(admitted.hash))
  const { tx } = sealed
  expect(sealed.tx).toBe(tx) // built once
  expect(Object.isFrozen(tx)).toBe(true)
  expect(tx.toJSON()).toEqual((admitted.tx as TypedTransaction).toJSON())
  expect(bytesToHex(tx.hash())).toBe(bytesToHex(admitted.hash))
  expect(bytesToHex(tx.serialize())).toBe(bytesToHex(admitted.tx.serialize()))
  expect(bytesToHex(tx.getSenderAddress().bytes)).toBe(bytesToHex(admitted.sender))
  expect(sealed.raw).toBe(raw)
}

describe('a sealed transaction read back with its stored sender', () => {
  test('has the hash, fields and sender admission gave it, for every transaction type', async () => {
    for (const raw of Object.values(await signedOfEveryType())) expectSameAsAdmitted(raw)
  })

  test("whose chain id was sent with a leading zero has @ethereumjs's hash, not the keccak of its bytes", async () => {
    const { eip2930, eip1559, eip7702 } = await signedOfEveryType()
    for (const raw of [eip2930!, eip1559!, eip7702!].map(withPaddedChainId)) {
      const admitted = decodeChainTx(raw, common)
      expect(bytesToHex(admitted.hash)).not.toBe(bytesToHex(keccak256(raw))) // the case is real
      expectSameAsAdmitted(raw)
    }
  })

  test('bytes @ethereumjs refuses are refused in its own words when the transaction is read', () => {
    const sender = hexToBytes(X)
    for (const raw of [Uint8Array.of(0xc3, 0x80, 0x85, 1), Uint8Array.of(0x02, 0xc1), Uint8Array.of(0x05, 0xc0)]) {
      let expected = ''
      try {
        createTxFromRLP(raw, { common })
      } catch (err) {
        expected = (err as Error).message
      }
      expect(expected).not.toBe('')
      expect(() => new SealedTx(raw, sender, common).tx).toThrow(expected)
    }
  })
})
