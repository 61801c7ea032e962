import { brotliCompressSync } from 'node:zlib'
import { describe, expect, test } from 'vitest'
import { BROTLI_FRAME_PREFIX, FeedDecodeError, decodeFrame, encodeBrotliFrame, encodeJsonFrame } from './codec.js'
import type { FlashblocksPayload } from './wire.js'

const message: FlashblocksPayload = {
  payload_id: '0x03307607ad2ba79d',
  index: 1,
  diff: {
    state_root: `0x${'11'.repeat(32)}`,
    receipts_root: `0x${'22'.repeat(32)}`,
    logs_bloom: `0x${'00'.repeat(256)}`,
    gas_used: '0x5208',
    block_hash: `0x${'33'.repeat(32)}`,
    transactions: ['0x02f86b'],
    withdrawals: [],
    withdrawals_root: `0x${'44'.repeat(32)}`,
  },
  metadata: { block_number: 8595627, new_account_balances: {}, receipts: {} },
}

describe('feed frames', () => {
  test('a JSON text frame decodes to the same message', () => {
    expect(decodeFrame(encodeJsonFrame(message))).toEqual(message)
  })

  test('a brotli frame starts with 0x1E and decodes to the same message', () => {
    const frame = encodeBrotliFrame(message)
    expect(frame[0]).toBe(BROTLI_FRAME_PREFIX)
    expect(decodeFrame(frame)).toEqual(message)
  })

  test('brotli without the prefix, as Base sends it, is accepted', () => {
    expect(decodeFrame(brotliCompressSync(Buffer.from(JSON.stringify(message))))).toEqual(message)
  })

  test('plain JSON in a binary frame is accepted', () => {
    expect(decodeFrame(Buffer.from(JSON.stringify(message)))).toEqual(message)
  })

  test('the OpFlashblockPayload wrapper is unwrapped', () => {
    expect(decodeFrame(JSON.stringify({ OpFlashblockPayload: message }))).toEqual(message)
  })

  test('the end-of-block message is a message of its own', () => {
    expect(decodeFrame('{"payload_id":"0x03307607ad2ba79d"}')).toEqual({ payload_id: '0x03307607ad2ba79d' })
  })

  test('garbage is refused with a decode error, not a crash', () => {
    expect(() => decodeFrame('not json')).toThrow(FeedDecodeError)
    expect(() => decodeFrame(Buffer.from([0x1e, 1, 2, 3]))).toThrow(FeedDecodeError)
    expect(() => decodeFrame('{"index":0}')).toThrow(FeedDecodeError)
  })
})
