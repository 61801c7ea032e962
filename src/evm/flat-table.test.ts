/**
 * The flat table answers as a Map would through growth, overwrites of other lengths, deletions that shift
 * probed entries back, and the compaction that gives dead bytes back; keys whose first words collide included.
 */
import { bytesToHex, randomBytes } from '@ethereumjs/util'
import { expect, test } from 'vitest'
import { FlatTable } from './flat-table.js'

type Model = Map<string, Uint8Array | null>

function keysOf(count: number): Uint8Array[] {
  const keys: Uint8Array[] = []
  for (let i = 0; i < count; i++) {
    const key = randomBytes(64)
    // every fourth key shares its first words with another: same home cell, told apart by the rest
    if (i % 4 === 3) key.set(keys[i - 1]!.subarray(0, 4), 0)
    if (i % 4 === 3) key.set(keys[i - 1]!.subarray(32, 36), 32)
    keys.push(key)
  }
  return keys
}

/** `ops` random sets, overwrites, absences, deletions and reads on both the table and the Map; the next seed. */
function exercise(table: FlatTable, model: Model, keys: Uint8Array[], ops: number, seed: number): number {
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0)
  for (let op = 0; op < ops; op++) {
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
  return seed
}

function expectHolds(table: FlatTable, model: Model, keys: Uint8Array[]): void {
  expect(table.size).toBe(model.size)
  for (const key of keys) {
    const id = bytesToHex(key)
    expect(table.get(key)).toEqual(model.has(id) ? model.get(id) : undefined)
  }
  const listed = new Map(
    [...table.entries()].map(([key, value]) => [bytesToHex(key), value === null ? null : value.slice()]),
  )
  expect(listed).toEqual(model)
}

test('a flat table holds what a Map holds through sets, overwrites, absences and deletions', () => {
  for (const small of [false, true]) {
    const keys = keysOf(6_000)
    const table = new FlatTable(64, small)
    const model: Model = new Map()
    exercise(table, model, keys, 40_000, 7)
    expectHolds(table, model, keys)
  }
})

test('a copy of a flat table holds its entries, and each changes apart from the other after', () => {
  const keys = keysOf(300)
  const table = new FlatTable(64, true)
  const model: Model = new Map()
  exercise(table, model, keys, 600, 7)
  const copy = table.copy()
  const copied: Model = new Map(model)
  expectHolds(copy, copied, keys)
  // one operation on each in turn: a write to one lands before the other's next read
  for (let op = 0, seeds = [11, 13]; op < 2_000; op++) {
    seeds[0] = exercise(table, model, keys, 1, seeds[0]!)
    seeds[1] = exercise(copy, copied, keys, 1, seeds[1]!)
  }
  expectHolds(table, model, keys)
  expectHolds(copy, copied, keys)
})
