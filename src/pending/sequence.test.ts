import { expect, test } from 'vitest'
import { classifyFlashblock, type SequenceCandidate, type SequencePosition } from './sequence.js'

const A = new Uint8Array(8).fill(0xaa)
const B = new Uint8Array(8).fill(0xbb)
const fb = (payloadId: Uint8Array, index: number, number = 5n, withBase = index === 0): SequenceCandidate => ({
  payloadId,
  index,
  metadata: { blockNumber: number },
  ...(withBase ? { base: { blockNumber: number } } : {}),
})
const at = (payloadId: Uint8Array, index: number, number = 5n): SequencePosition => ({ payloadId, index, number })

test('index 0 with a base starts a block, from nothing or over another block', () => {
  expect(classifyFlashblock(undefined, fb(A, 0), 4n).kind).toBe('start')
  expect(classifyFlashblock(at(B, 3, 4n), fb(A, 0), 3n).kind).toBe('start')
})

test('the next index of the same payload continues the block', () => {
  expect(classifyFlashblock(at(A, 2), fb(A, 3), 4n).kind).toBe('next')
})

test('a flashblock already applied is a duplicate, including a repeated index 0', () => {
  expect(classifyFlashblock(at(A, 2), fb(A, 2), 4n).kind).toBe('duplicate')
  expect(classifyFlashblock(at(A, 2), fb(A, 0), 4n).kind).toBe('duplicate')
})

test('a skipped index, a join in mid-block or another payload breaks the sequence', () => {
  expect(classifyFlashblock(at(A, 2), fb(A, 4), 4n).kind).toBe('break')
  expect(classifyFlashblock(undefined, fb(A, 3), 4n).kind).toBe('break')
  expect(classifyFlashblock(at(A, 2), fb(B, 3), 4n).kind).toBe('break')
})

test('index 0 without a base, or with a base for another height, breaks the sequence', () => {
  expect(classifyFlashblock(undefined, fb(A, 0, 5n, false), 4n).kind).toBe('break')
  expect(classifyFlashblock(undefined, { ...fb(A, 0), base: { blockNumber: 6n } }, 4n).kind).toBe('break')
})

test('a next index that names another height breaks the sequence', () => {
  expect(classifyFlashblock(at(A, 0, 5n), fb(A, 1, 6n), 4n).kind).toBe('break')
})

test('a block at or below the canonical height is stale', () => {
  expect(classifyFlashblock(undefined, fb(A, 0, 5n), 5n).kind).toBe('stale')
  expect(classifyFlashblock(at(A, 1), fb(A, 2, 5n), 6n).kind).toBe('stale')
})
