import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import { describe, expect, test } from 'vitest'
import { signTransferToBob } from '../../test/support/dev-keys.js'
import { createChainCommon } from '../evm/chain-common.js'
import { decodeTransaction } from '../chain/pool/admission.js'
import { keyOf } from '../domain/block-record.js'
import type { TxRecord, UserTxRecord } from '../domain/types.js'
import { decodeFeedTx } from './feed-txs.js'

const common = createChainCommon({ chainId: 196, gasLimit: 30_000_000n, baseFee: 1_000_000_000n })

describe("a feed frame's transactions", () => {
  test('a transaction this follower forwarded is the record it decoded when sending, not a second decoding', async () => {
    const raw = hexToBytes(await signTransferToBob())
    const forwarded = decodeTransaction(raw, common)
    const known = new Map([[keyOf(forwarded.hash), forwarded]])
    const fromFeed = decodeFeedTx(raw.slice(), common, (hash) => known.get(keyOf(hash)))
    expect(fromFeed).toBe(forwarded)
  })

  test('a transaction it did not forward is decoded from the frame, with its sender recovered', async () => {
    const raw = hexToBytes(await signTransferToBob(7))
    const other = decodeTransaction(hexToBytes(await signTransferToBob(8)), common)
    // even a known record under the same hash is not taken unless its bytes are the frame's
    const fromFeed = decodeFeedTx(raw, common, () => other as TxRecord)
    expect(fromFeed).not.toBe(other)
    expect(bytesToHex(fromFeed.sender)).toBe('0x70997970c51812dc3a010c7d01b50e0d17dc79c8')
    const { tx } = fromFeed as UserTxRecord
    expect(tx.nonce).toBe(7n)
    expect(tx.getSenderAddress().toString()).toBe('0x70997970c51812dc3a010c7d01b50e0d17dc79c8')
  })
})
