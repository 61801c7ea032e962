import { describe, expect, test } from 'vitest'
import { createBlock, createBlockHeader } from '@ethereumjs/block'
import { createTx } from '@ethereumjs/tx'
import { createChainCommon } from '../evm/chain-common.js'
import { assembleBlock } from './block-record.js'
import type { TxRecord } from './types.js'

const common = createChainCommon({ chainId: 196, gasLimit: 30_000_000n, baseFee: 1_000_000n })
const key = new Uint8Array(32).fill(1)

function record(type: 0 | 2, nonce: bigint): TxRecord {
  const fields = { nonce, gasLimit: 21_000n, to: `0x${'22'.repeat(20)}` as const, value: 1n }
  const data = type === 0 ? { ...fields, type, gasPrice: 2n } : { ...fields, type, maxFeePerGas: 2n }
  const tx = createTx(data, { common }).sign(key)
  return { hash: tx.hash(), tx, sender: tx.getSenderAddress().bytes, raw: tx.serialize() }
}

describe("an assembled block's size", () => {
  test('is the length of the block as @ethereumjs serializes it, each time the same header is assembled', () => {
    const header = createBlockHeader(
      { number: 7n, gasLimit: 30_000_000n, baseFeePerGas: 1_000_000n, timestamp: 1_764_691_201n },
      { common },
    )
    const txs = [record(0, 0n), record(2, 1n)]
    const rlpLength = (n: number) =>
      createBlock({ header, transactions: txs.slice(0, n).map((t) => t.tx) }, { common }).serialize().length
    // a block in progress is assembled again over one header as its transactions come (flashblocks, the seal)
    for (const n of [0, 2, 1, 0])
      expect(assembleBlock(header, header.hash(), txs.slice(0, n), []).size).toBe(rlpLength(n))
  })
})
