import { expect, test } from 'vitest'
import { wordKey } from '../../domain/map-keys.js'
import { Journal, Slot } from './journal.js'
import * as w from './word.js'

const stack = new Uint32Array(64)
const word = (v: bigint, at = 0) => {
  w.fromBigInt(stack, at, v)
  return at
}
const held = (j: Journal, slot: Slot) => {
  if (slot.current < 0) return undefined
  j.load(slot.current, stack, 56)
  return w.toBigInt(stack, 56)
}

test('a reverted child frame undoes its writes and warmings, and the parent keeps its own', () => {
  const j = new Journal()
  const slot = new Slot()
  const other = new Slot()
  j.write(slot, stack, word(1n))
  j.warm(slot)
  const mark = j.mark()
  j.write(slot, stack, word(2n))
  j.write(slot, stack, word(3n))
  j.write(other, stack, word(4n))
  expect(j.warm(other)).toBe(true)
  expect(held(j, slot)).toBe(3n)
  j.revert(mark)
  expect(held(j, slot)).toBe(1n)
  expect(held(j, other)).toBeUndefined()
  expect(other.warm).toBe(false)
  expect(slot.warm).toBe(true)
  j.release()
})

test('a child that returns keeps its writes, which a later revert of an outer mark undoes', () => {
  const j = new Journal()
  const slot = new Slot()
  const outer = j.mark()
  j.write(slot, stack, word(5n))
  j.mark()
  j.write(slot, stack, word(6n))
  j.keep()
  // the parent overwrites what its returned child wrote
  j.write(slot, stack, word(7n))
  expect(held(j, slot)).toBe(7n)
  j.revert(outer)
  expect(held(j, slot)).toBeUndefined()
  j.release()
})

test('a frame writing one slot over and over holds one value, not one per write', () => {
  const j = new Journal()
  const slot = new Slot()
  j.mark()
  const length = j.words.length
  for (let i = 0; i < 100_000; i++) j.write(slot, stack, word(BigInt(i)))
  expect(j.words.length).toBe(length)
  expect(held(j, slot)).toBe(99_999n)
  j.release()
})

test('a slot number is one key however it is written: a number below 2^53, a string above', () => {
  expect(wordKey(stack, word(0x1234n))).toBe(0x1234)
  expect(wordKey(stack, word(2n ** 53n - 1n))).toBe(2 ** 53 - 1)
  const big = wordKey(stack, word(2n ** 53n))
  expect(typeof big).toBe('string')
  expect(wordKey(stack, word(2n ** 53n, 8))).toBe(big)
  expect(wordKey(stack, word(2n ** 255n + 1n))).not.toBe(wordKey(stack, word(2n ** 255n + 2n)))
})
