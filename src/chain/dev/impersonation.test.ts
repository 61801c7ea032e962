import { describe, expect, test } from 'vitest'
import { keccak256 } from '../../evm/crypto.js'
import { createChainCommon } from '../../evm/chain-common.js'
import { decodeTransaction } from '../pool/admission.js'
import { decodeChainTx, decodeImpersonated, impersonatedTx } from './impersonation.js'
import { EmbeddedDevAccounts } from '../dev-signer.js'
import { deriveDevAccounts } from '../accounts.js'
import { DEFAULT_MNEMONIC } from '../../config.js'

const common = createChainCommon({ chainId: 196, gasLimit: 30_000_000n, baseFee: 1_000_000_000n })
const sender = Uint8Array.from({ length: 20 }, (_, i) => (i === 19 ? 0xce : i === 18 ? 0xa1 : 0))
const to = new Uint8Array(20).fill(0x22)
const base = { from: sender, to, value: 5n, nonce: 3n, gas: 21_000n, chainId: 196n }

describe('an impersonated transaction', () => {
  test.each([
    ['EIP-1559', { ...base, type: 2, maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1n }],
    ['legacy', { ...base, type: 0, gasPrice: 2_000_000_000n }],
  ])('%s: its bytes carry the sender in r with s = 1, hash like any other, and decode back to it', (_, request) => {
    const record = impersonatedTx(request, common)
    expect(record.sender).toEqual(sender)
    expect(record.tx.s).toBe(1n)
    expect(record.tx.r).toBe(0xa1cen)
    expect(record.hash).toEqual(keccak256(record.raw))
    const decoded = decodeImpersonated(record.raw, common)!
    expect(decoded.sender).toEqual(sender)
    expect(decoded.hash).toEqual(record.hash)
    expect(decoded.tx.getSenderAddress().bytes).toEqual(sender)
    expect(decodeChainTx(record.raw, common).sender).toEqual(sender)
  })

  test('admission never reads the marker: the bytes recover to someone else or to no one', () => {
    const record = impersonatedTx({ ...base, type: 2, maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1n }, common)
    let recovered: Uint8Array | undefined
    try {
      recovered = decodeTransaction(record.raw, common).sender
    } catch {
      recovered = undefined
    }
    expect(recovered).not.toEqual(sender)
  })

  test('a transaction signed with a key is not taken for one', () => {
    const [account] = deriveDevAccounts(DEFAULT_MNEMONIC, 1)
    const raw = new EmbeddedDevAccounts(common, [account!]).signTransaction(account!, {
      ...base,
      type: 2,
      maxFeePerGas: 2_000_000_000n,
      maxPriorityFeePerGas: 1n,
    })
    expect(decodeImpersonated(raw, common)).toBeUndefined()
    expect(decodeChainTx(raw, common).sender).toEqual(account!.address)
  })
})
