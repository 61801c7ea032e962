/**
 * eth_sendRawTransaction refuses an RLP integer with a leading zero byte as geth's decoder does (-32000,
 * `rlp: non-canonical integer ...`), the chain id of a typed transaction included (which @ethereumjs would
 * read, giving a hash that is not the keccak of the bytes); the canonical bytes of the same transactions
 * are accepted, hashed as sent and mined.
 */
import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import { type Hex, keccak256 } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { BOB, DEV_KEY_1 } from '../support/dev-keys.js'
import { type Harness, startHarness } from '../support/harness.js'
import { withPaddedChainId, withPaddedField } from '../support/padded-integer.js'

const sender = privateKeyToAccount(DEV_KEY_1)
const fees = { maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 10n ** 9n }

describe('eth_sendRawTransaction of a non-canonical RLP integer', () => {
  let h: Harness
  let dynamicFee: Hex
  let legacy: Hex

  beforeAll(async () => {
    h = await startHarness()
    dynamicFee = await sender.signTransaction({
      type: 'eip1559',
      chainId: 196,
      nonce: 0,
      to: BOB,
      gas: 21_000n,
      value: 1n,
      ...fees,
    })
    legacy = await sender.signTransaction({
      type: 'legacy',
      chainId: 196,
      nonce: 1,
      to: BOB,
      gas: 21_000n,
      value: 2n,
      gasPrice: 10n ** 10n,
    })
  })
  afterAll(() => h?.close())

  const send = (raw: Uint8Array | Hex, method = 'eth_sendRawTransaction') =>
    h.rpc('general', method, [typeof raw === 'string' ? raw : bytesToHex(raw)])

  test("an EIP-1559 transaction whose chain id has a leading zero is refused with geth's decoder error", async () => {
    const reply = await send(withPaddedChainId(hexToBytes(dynamicFee)))
    expect(reply.error).toEqual({
      code: -32000,
      message:
        'rlp: non-canonical integer (leading zero bytes) for *big.Int, decoding into (types.DynamicFeeTx).ChainID',
    })
  })

  test("a legacy transaction whose nonce has a leading zero is refused with geth's decoder error", async () => {
    const reply = await send(withPaddedField(hexToBytes(legacy), 0))
    expect(reply.error).toEqual({
      code: -32000,
      message: 'rlp: non-canonical integer (leading zero bytes) for uint64, decoding into (types.LegacyTx).Nonce',
    })
  })

  test('eth_sendRawTransactionSync refuses the same bytes with the same error', async () => {
    const reply = await send(withPaddedChainId(hexToBytes(dynamicFee)), 'eth_sendRawTransactionSync')
    expect(reply.error?.message).toBe(
      'rlp: non-canonical integer (leading zero bytes) for *big.Int, decoding into (types.DynamicFeeTx).ChainID',
    )
  })

  test('the canonical bytes of both are accepted, hashed as sent and mined', async () => {
    const hashes = [(await send(dynamicFee)).result, (await send(legacy)).result]
    expect(hashes).toEqual([keccak256(dynamicFee), keccak256(legacy)])
    await h.mine()
    for (const hash of hashes as Hex[]) {
      expect((await h.general.getTransactionReceipt({ hash })).status).toBe('success')
    }
  })
})
