import { bytesToHex } from '@ethereumjs/util'
import { expect, test } from 'vitest'
import { decodeFrame } from './codec.js'
import { decodeFlashblock } from './decode.js'
import type { FlashblocksPayload } from './wire.js'

const zero32 = `0x${'00'.repeat(32)}` as const

/** A Base-style message (metadata is `{block_number}` only) after index 0. */
const baseMessage = {
  payload_id: '0x0102030405060708',
  index: 1,
  diff: {
    state_root: zero32,
    receipts_root: zero32,
    logs_bloom: `0x${'00'.repeat(256)}`,
    gas_used: '0x5208',
    block_hash: zero32,
    transactions: ['0x02f86b'],
    withdrawals: [],
    withdrawals_root: zero32,
  },
  metadata: { block_number: 12 },
}

test('a Base message without balances or receipts decodes with empty ones', () => {
  const payload = decodeFlashblock(decodeFrame(JSON.stringify(baseMessage)) as FlashblocksPayload)
  expect(payload.index).toBe(1)
  expect(payload.base).toBeUndefined()
  expect(payload.metadata).toEqual({ blockNumber: 12n, newAccountBalances: [], receipts: [] })
  expect(payload.diff.gasUsed).toBe(21_000n)
  expect(payload.diff.transactions.map((t) => bytesToHex(t))).toEqual(['0x02f86b'])
})

test('X Layer receipts decode with the type their tag names, and balances by address', () => {
  const log = { address: '0x00000000000000000000000000000000000000aa', topics: [zero32], data: '0x01' }
  const message = {
    ...baseMessage,
    metadata: {
      block_number: 12,
      new_account_balances: { '0x00000000000000000000000000000000000000bb': '0x10' },
      receipts: {
        [`0x${'11'.repeat(32)}`]: { Eip1559: { status: '0x1', cumulativeGasUsed: '0x5208', logs: [log] } },
        [`0x${'22'.repeat(32)}`]: { Legacy: { status: '0x0', cumulativeGasUsed: '0xa410', logs: [] } },
      },
    },
  }
  const { metadata } = decodeFlashblock(message as unknown as FlashblocksPayload)
  expect(metadata.newAccountBalances.map((b) => [bytesToHex(b.address), b.balance])).toEqual([
    ['0x00000000000000000000000000000000000000bb', 16n],
  ])
  expect(metadata.receipts.map((r) => [r.txType, r.status, r.cumulativeGasUsed, r.logs.length])).toEqual([
    [2, 1, 21_000n, 1],
    [0, 0, 42_000n, 0],
  ])
  expect(bytesToHex(metadata.receipts[0].logs[0].data)).toBe('0x01')
})
