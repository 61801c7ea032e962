/**
 * The flat table answers as a Map would through growth, overwrites of other lengths, deletions that shift
 * probed entries back, and the compaction that gives dead bytes back; keys whose first words collide included.
 */
import { bytesToHex, randomBytes } from '@ethereumjs/util'
import { expect, test } from 'vitest'
import { FlatTable } from './flat-table.js'

test('a flat table holds what a Map holds through sets, overwrites, absences and deletions', () => {
  const table = new FlatTable(64)
  const model = new Map<string, Uint8Array | null>()
  const keys: Uint8Array[] = []
  for (let i = 0; i < 6_000; i++) {
    const key = randomBytes(64)
    // every fourth key shares its first words with another: same home cell, told apart by the rest
    if (i % 4 === 3) key.set(keys[i - 1]!.subarray(0, 4), 0)
    if (i % 4 === 3) key.set(keys[i - 1]!.subarray(32, 36), 32)
    keys.push(key)
  }
  let seed = 7
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0)
  for (let op = 0; op < 40_000; op++) {
    const key = keys[next() % keys.length]!
    const id = bytesToHex(key)
    const roll = next() % 10
    if (roll < 6) {
      const value = roll === 5 ? null : randomBytes(1 + (next() % 40))
      table.set(key, value)
      model.set(id, value)
    } else if (roll < 9) {
      table.delete(key)
      model.delete(id)
    } else expect(table.get(key)).toEqual(model.has(id) ? model.get(id) : undefined)
  }
  expect(table.size).toBe(model.size)
  for (const key of keys) {
    const id = bytesToHex(key)
    expect(table.get(key)).toEqual(model.has(id) ? model.get(id) : undefined)
  }
  const listed = new Map(
    [...table.entries()].map(([key, value]) => [bytesToHex(key), value === null ? null : value.slice()]),
  )
  expect(listed).toEqual(model)
})
