/**
 * MemoryNodes' id table (int-table.ts) answers as a Map would through any mix of sets and deletes, including keys
 * that share their low bits and runs that wrap past the table's end.
 */
import { expect, test } from 'vitest'
import { IntTable } from './int-table.js'

/** A small deterministic generator, so a failure repeats. */
function numbers(seed: number): () => number {
  let state = seed
  return () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0
    return state >>> 1
  }
}

test('gets, has, size and deletes agree with a Map through a long random mix of operations', () => {
  const table = new IntTable()
  const model = new Map<number, number>()
  const next = numbers(7)
  // few distinct keys, many with the same low bits: long probe runs that wrap and shift back on delete
  const keys = Array.from(
    { length: 3_000 },
    (_, i) => (i % 3 === 0 ? (next() << 10) >>> 1 : next()) | (i % 5 === 0 ? 1023 : 0),
  )
  for (let step = 0; step < 20_000; step++) {
    const key = keys[next() % keys.length]!
    if (next() % 3 === 0) expect(table.delete(key)).toBe(model.delete(key))
    else {
      table.set(key, step)
      model.set(key, step)
    }
    if (step % 499 === 0) {
      expect(table.size).toBe(model.size)
      for (const probe of keys.slice(0, 100)) {
        expect(table.get(probe)).toBe(model.get(probe))
        expect(table.has(probe)).toBe(model.has(probe))
      }
    }
  }
  for (const key of keys) expect(table.get(key)).toBe(model.get(key))
})

test('the largest 31-bit id and id zero are kept like any other', () => {
  const table = new IntTable()
  table.set(2 ** 31 - 1, 5)
  table.set(0, 6)
  expect(table.get(2 ** 31 - 1)).toBe(5)
  expect(table.get(0)).toBe(6)
  expect(table.delete(0)).toBe(true)
  expect(table.has(0)).toBe(false)
  expect(table.get(2 ** 31 - 1)).toBe(5)
})
