import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { MapDB, ValueEncoding } from '@ethereumjs/util'
import { expect, test } from 'vitest'
import { keccak256 } from './crypto.js'
import { mapUnder } from './patches/fields.js'
import { type NodeStore, TrieReader } from './trie-reader.js'

/** Deterministic bytes: the keccak chain of a seed, cut to `length`. */
const bytesOf = (seed: number, length: number) => keccak256(Uint8Array.of(seed >> 8, seed & 255)).slice(0, length)

async function trieOf(entries: [Uint8Array, Uint8Array][], hashed: boolean) {
  const db = new MapDB<string, Uint8Array>()
  const trie = new MerklePatriciaTrie({ useKeyHashing: hashed, db, valueEncoding: ValueEncoding.Bytes })
  for (const [key, value] of entries) await trie.put(key, value)
  return { trie, store: db as unknown as NodeStore }
}

async function expectSameReads(trie: MerklePatriciaTrie, reader: TrieReader, keys: Uint8Array[]) {
  for (const key of keys) expect(await reader.get(trie.root(), key)).toEqual(await trie.get(key))
}

test('a hashed trie of 600 keys reads every key it holds, and null for 600 it does not, as @ethereumjs walks it', async () => {
  const held = Array.from({ length: 600 }, (_, i) => [bytesOf(i, 20), bytesOf(i + 10_000, 1 + (i % 70))] as const)
  const { trie, store } = await trieOf(
    held.map(([k, v]) => [k, v]),
    true,
  )
  const reader = new TrieReader(store)
  const absent = Array.from({ length: 600 }, (_, i) => bytesOf(i + 20_000, 20))
  await expectSameReads(trie, reader, [...held.map(([k]) => k), ...absent])
  expect(await reader.get(trie.root(), held[17]![0])).toEqual(held[17]![1])
})

test('extension nodes, nodes inlined in their parent (under 32 bytes) and keys that end inside an extension read right', async () => {
  // raw keys sharing 30 bytes: one long extension, then a branch whose small leaves are inlined in it
  const prefix = bytesOf(1, 30)
  const key = (a: number, b: number) => Uint8Array.of(...prefix, a, b)
  const entries: [Uint8Array, Uint8Array][] = []
  for (let a = 0; a < 4; a++) for (let b = 0; b < 3; b++) entries.push([key(a, b), Uint8Array.of(a, b)])
  entries.push([key(9, 9), bytesOf(2, 40)]) // a leaf big enough to be stored by hash
  const { trie, store } = await trieOf(entries, false)
  const reader = new TrieReader(store, (k) => k)
  const misses = [key(0, 7), key(5, 0), key(9, 8), Uint8Array.of(...bytesOf(3, 30), 0, 0), Uint8Array.of(...prefix, 0)]
  await expectSameReads(trie, reader, [...entries.map(([k]) => k), ...misses])
  expect(await reader.get(trie.root(), key(3, 2))).toEqual(Uint8Array.of(3, 2))
})

test('the empty trie holds nothing, and a root whose nodes are gone is an error that names the node, not an absent key', async () => {
  const { trie, store } = await trieOf([], true)
  expect(await new TrieReader(store).get(trie.root(), bytesOf(1, 20))).toBeNull()
  const full = await trieOf([[bytesOf(1, 20), bytesOf(2, 8)]], true)
  await expect(new TrieReader(store).get(full.trie.root(), bytesOf(1, 20))).rejects.toThrow(
    /state trie node [0-9a-f]{64} is missing from the node store/,
  )
})

test('nodes stored as hex (by an older writer) read the same as nodes stored as bytes', async () => {
  const entries = Array.from(
    { length: 50 },
    (_, i) => [bytesOf(i, 20), bytesOf(i + 500, 33)] as [Uint8Array, Uint8Array],
  )
  const stored = new Map<string, string>()
  const db = new MapDB<string, string>(stored)
  const trie = new MerklePatriciaTrie({ useKeyHashing: true, db, valueEncoding: ValueEncoding.String })
  for (const [k, v] of entries) await trie.put(k, v)
  expect(typeof [...stored.values()][0]).toBe('string')
  await expectSameReads(
    trie,
    new TrieReader(db as unknown as NodeStore),
    entries.map(([k]) => k),
  )
})

test('a node read once is not kept decoded; read a second time it is, and later reads take it from memory', async () => {
  const entries = Array.from(
    { length: 300 },
    (_, i) => [bytesOf(i, 20), bytesOf(i + 700, 40)] as [Uint8Array, Uint8Array],
  )
  const { trie, store } = await trieOf(entries, true)
  const nodes = mapUnder(store as unknown as MapDB<string, Uint8Array>)
  let reads = 0
  // a store read without a promise, as a data directory's getSync: every node the reader does not hold is counted
  const counted = {
    getSync: (key: string) => {
      reads++
      return nodes.get(key)
    },
  } as unknown as NodeStore
  const reader = new TrieReader(counted)
  const readsOf = async (key: Uint8Array) => {
    reads = 0
    expect(await reader.get(trie.root(), key)).toEqual(await trie.get(key))
    return reads
  }
  const [key] = entries[0]!
  const first = await readsOf(key)
  expect(first).toBeGreaterThan(2) // a root branch, a branch under it, and the leaf at least
  expect(await readsOf(key)).toBe(first) // nothing was kept from the first walk
  expect(await readsOf(key)).toBe(1) // the branches were kept at the second: the leaf alone is read
})
