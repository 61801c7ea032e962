/**
 * Every producer's dialect (test/fixtures/feed-dialects/) decodes: X Layer's envelope, target_index, end of
 * block and access lists; op-rbuilder's typed and older tagged receipts and post_exec_tx; Base's null
 * access_list, boolean status and bare `{block_number}` metadata. The test writers reproduce each fixture's
 * current-form frames exactly, so the follower's dialect test feeds what these files pin.
 */
import { readFileSync } from 'node:fs'
import { bytesToHex } from '@ethereumjs/util'
import { describe, expect, test } from 'vitest'
import { DIALECTS, type Dialect, writeEnd, writeFrame, writeMessage } from '../../test/support/feed-dialects.js'
import { decodeFrame, FeedDecodeError } from './codec.js'
import { decodeFlashblock } from './decode.js'
import { type FlashblocksPayload, isEndOfBlock } from './wire.js'

interface Fixture {
  frames: { message: Record<string, unknown>; olderForm?: boolean }[]
}

const fixture = (d: Dialect): Fixture =>
  JSON.parse(readFileSync(new URL(`../../test/fixtures/feed-dialects/${d}.json`, import.meta.url), 'utf8'))

const decodeAll = (d: Dialect) =>
  fixture(d).frames.map(({ message }) => {
    const m = decodeFrame(writeFrame(d, message))
    return isEndOfBlock(m)
      ? { end: bytesToHex(new Uint8Array(Buffer.from(m.payload_id.slice(2), 'hex'))) }
      : decodeFlashblock(m as FlashblocksPayload)
  })

describe.each(DIALECTS)('the %s dialect', (dialect) => {
  test('every frame decodes, on the socket as the producer frames it, to the block it describes', () => {
    const decoded = decodeAll(dialect)
    const payloads = decoded.filter((d) => 'index' in d)
    expect(payloads.map((p) => p.index)).toEqual(payloads.map((_, i) => i))
    for (const p of payloads) {
      expect(p.metadata.blockNumber).toBe(42810100n)
      expect(bytesToHex(p.payloadId)).toBe('0x03307607ad2ba79d')
    }
    expect(payloads[0].base?.blockNumber).toBe(42810100n)
    expect(payloads[0].base?.extraData).toEqual(Uint8Array.from([0, 0, 0, 0, 0xfa, 0, 0, 0, 6]))
    expect(payloads.slice(1).every((p) => p.base === undefined)).toBe(true)
  })

  test('the test writer reproduces each current-form frame exactly', () => {
    for (const { message, olderForm } of fixture(dialect).frames) {
      if (olderForm) continue
      const m = decodeFrame(JSON.stringify(message))
      const again = isEndOfBlock(m)
        ? writeEnd(dialect, Buffer.from(m.payload_id.slice(2), 'hex'))
        : writeMessage(dialect, decodeFlashblock(m as FlashblocksPayload))
      expect(JSON.stringify(again)).toBe(JSON.stringify(message))
    }
  })
})

test('X Layer: target_index, its end-of-block message and the flashblock access list (RLP) come through', () => {
  const [first, second, end] = decodeAll('xlayer-reth')
  expect(first).toMatchObject({ index: 0, targetIndex: 0 })
  expect(second).toMatchObject({ index: 1, targetIndex: 4 })
  expect(end).toEqual({ end: '0x03307607ad2ba79d' })
  if (!('index' in second)) throw new Error('not a payload')
  // no balances, no receipts: X Layer's builder sends None for both
  expect(second.metadata.receipts).toEqual([])
  expect(second.metadata.newAccountBalances).toEqual([])
  expect(second.metadata.accessList?.[0]).toBeGreaterThanOrEqual(0xc0) // an RLP list
})

test('op-rbuilder: typed receipts, the older externally tagged form, and post_exec_tx', () => {
  const [first, second, third] = decodeAll('op-rbuilder')
  if (!('index' in first) || !('index' in second) || !('index' in third)) throw new Error('not payloads')
  expect(first.metadata.receipts.map((r) => [r.txType, r.status, r.depositNonce])).toEqual([[0x7e, 1, 0x1c4n]])
  expect(first.diff.blobGasUsed).toBe(0n)
  expect(second.diff.blobGasUsed).toBeUndefined()
  expect(second.diff.postExecTx?.[0]).toBe(0x7d)
  expect(second.metadata.receipts[0]).toMatchObject({ txType: 2, status: 1, cumulativeGasUsed: 67000n })
  expect(second.metadata.receipts[0].logs[0].topics).toHaveLength(2)
  expect(second.metadata.newAccountBalances).toHaveLength(2)
  expect(third.metadata.receipts.map((r) => [r.txType, r.status])).toEqual([[0, 0]])
})

test('Base: null access list, a boolean status, and metadata of block_number alone', () => {
  const [first, second, third] = decodeAll('base')
  if (!('index' in first) || !('index' in second) || !('index' in third)) throw new Error('not payloads')
  expect(first.metadata.accessList).toBeUndefined()
  expect(second.metadata.receipts[0].status).toBe(1)
  expect(third.metadata).toEqual({ blockNumber: 42810100n, newAccountBalances: [], receipts: [] })
  expect(third.diff.blobGasUsed).toBe(0x9an)
})

test("`base: null` after index 0 (older rollup-boost, as op-alloy's Unichain test block has it) reads as no base", () => {
  const message = structuredClone(fixture('op-rbuilder').frames[1].message) as Record<string, unknown>
  message.base = null
  expect(decodeFlashblock(message as unknown as FlashblocksPayload).base).toBeUndefined()
})

test('metadata.block_number as a hex quantity decodes like the number', () => {
  const message = structuredClone(fixture('op-rbuilder').frames[0].message) as Record<string, Record<string, unknown>>
  message.metadata.block_number = '0x28d3af4'
  expect(decodeFlashblock(message as unknown as FlashblocksPayload).metadata.blockNumber).toBe(42810100n)
})

// biome-ignore lint/suspicious/noExplicitAny: a test edits arbitrary fields of a JSON message
type Msg = Record<string, any>

describe('a malformed frame is refused with a FeedDecodeError naming the field; unknown fields are ignored', () => {
  const good = () => structuredClone(fixture('op-rbuilder').frames[1].message) as Msg
  const refuse = (edit: (m: Msg) => void, field: RegExp) => {
    const m = good()
    edit(m)
    expect(() => decodeFlashblock(decodeFrame(JSON.stringify(m)) as FlashblocksPayload)).toThrow(FeedDecodeError)
    expect(() => decodeFlashblock(decodeFrame(JSON.stringify(m)) as FlashblocksPayload)).toThrow(field)
  }
  test.each([
    ['a state root that is not hex', (m: Msg) => (m.diff.state_root = '0xzz'), /diff\.state_root/],
    ['a short block hash', (m: Msg) => (m.diff.block_hash = '0x1234'), /diff\.block_hash/],
    ['a gas figure in decimal', (m: Msg) => (m.diff.gas_used = '67000'), /diff\.gas_used/],
    ['transactions that are not a list', (m: Msg) => (m.diff.transactions = '0x02'), /diff\.transactions/],
    ['a negative block number', (m: Msg) => (m.metadata.block_number = -1), /metadata\.block_number/],
    [
      'a receipt of an unknown tag',
      (m: Msg) => (m.metadata.receipts = { [`0x${'11'.repeat(32)}`]: { Eip9999: {} } }),
      /receipts/,
    ],
    ['a receipt status of 2', (m: Msg) => (Object.values(m.metadata.receipts as Msg)[0].status = '0x2'), /status/],
    ['a payload without a diff', (m: Msg) => delete m.diff, /diff/],
  ])('%s', (_, edit, field) => refuse(edit, field))

  test('fields nobody knows yet are ignored', () => {
    const m = good()
    m.prev_flashblock_id = '0x01'
    m.diff.something_new = [1, 2]
    m.metadata.extra = { a: 1 }
    expect(decodeFlashblock(decodeFrame(JSON.stringify(m)) as FlashblocksPayload).index).toBe(1)
  })
})
