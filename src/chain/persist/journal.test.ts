import { expect, test } from 'vitest'
import { type JournalRecord, decodeJournalRecord, encodeJournalRecord, replayable } from './journal.js'

const params = (id: number) => ({
  payloadId: Uint8Array.of(id, 0, 0, 0, 0, 0, 0, 1),
  timestamp: 1_700_000_000n,
  prevRandao: new Uint8Array(32).fill(7),
  coinbase: new Uint8Array(20).fill(0x42),
})
const record = (index: number, id = 1, txs: Uint8Array[] = []): JournalRecord => ({
  number: 5n,
  index,
  params: params(id),
  transactions: txs,
})

test('a journal record decodes to what was encoded', () => {
  const original = record(3, 1, [Uint8Array.of(2, 1, 2, 3), Uint8Array.of(0xf8, 0)])
  expect(decodeJournalRecord(encodeJournalRecord(original))).toEqual(original)
})

test('replay stops at the first gap in the indexes', () => {
  expect(replayable([record(0), record(1), record(3)]).map((r) => r.index)).toEqual([0, 1])
})

test('replay stops where another payload begins and needs an index 0', () => {
  expect(replayable([record(0, 1), record(1, 2)]).map((r) => r.index)).toEqual([0])
  expect(replayable([record(1), record(2)])).toEqual([])
})
