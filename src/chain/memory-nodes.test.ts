/**
 * The in-memory node store packs nodes into slabs and copies a thinned slab's nodes out (node-slabs.ts): what
 * it answers must be what was written, through any number of deletions, and a node's bytes handed out earlier
 * must stay as they were.
 */
import { equalsBytes, randomBytes } from '@ethereumjs/util'
import { expect, test } from 'vitest'
import { hexKey } from '../domain/map-keys.js'
import { keccak256 } from '../evm/crypto.js'
import { NODE_SLAB_BYTES } from '../limits.js'
import { MemoryNodes } from './memory-nodes.js'

/** `count` nodes of 30-600 bytes, named by their hash as a trie names them. */
function nodes(count: number): Map<string, Uint8Array> {
  const made = new Map<string, Uint8Array>()
  for (let i = 0; i < count; i++) {
    const bytes = randomBytes(30 + ((i * 37) % 570))
    made.set(hexKey(keccak256(bytes)), bytes)
  }
  return made
}

test('nodes and their counts read back as written through deletions that thin many slabs, earlier reads unchanged', () => {
  const store = new MemoryNodes()
  // several slabs' worth
  const written = nodes(Math.ceil((NODE_SLAB_BYTES * 6) / 350))
  for (const [key, bytes] of written) store.set(key, bytes)
  expect(store.size).toBe(written.size)
  const handedOut = [...written.keys()].filter((_, i) => i % 7 === 0).map((key) => [key, store.get(key)!] as const)
  // the pruner's counts, kept beside the nodes, travel with them
  let n = 0
  for (const key of written.keys()) store.setRefs(store.place(key), n++ % 1000)
  // three of every four go: every slab but the newest is thinned below half and copied out
  // compared as bytes, wrong ones listed (a deep equality per node is slow at this count)
  const wrong: string[] = []
  let i = 0
  for (const key of written.keys()) if (i++ % 4 !== 0 && !store.delete(key)) wrong.push(key)
  i = 0
  for (const [key, bytes] of written) {
    const kept = i++ % 4 === 0
    const read = store.get(key)
    if (store.has(key) !== kept || (kept ? !read || !equalsBytes(read, bytes) : read !== undefined)) wrong.push(key)
  }
  n = 0
  for (const key of written.keys())
    if (n++ % 4 === 0 && store.refs(store.place(key)) !== (n - 1) % 1000) wrong.push(key)
  for (const [key, bytes] of handedOut) if (!equalsBytes(bytes, written.get(key)!)) wrong.push(key)
  expect(wrong).toEqual([])
  expect(store.size).toBe(Math.ceil(written.size / 4))
  expect(new Set(store.keys())).toEqual(new Set([...written.keys()].filter((_, j) => j % 4 === 0)))
  // written again after its deletion: stored again
  const [again] = [...written.keys()].filter((_, j) => j % 4 === 1)
  store.set(again!, written.get(again!)!)
  expect(store.get(again!)).toEqual(written.get(again!))
})

test('two nodes whose hashes begin alike are told apart, and code is kept by its longer key', () => {
  const store = new MemoryNodes()
  const a = randomBytes(100)
  const b = randomBytes(120)
  // the same first 31 bits (the id a node is found by), different hashes
  const keyA = `abcdef01${'1'.repeat(56)}`
  const keyB = `abcdef00${'2'.repeat(56)}`
  store.set(keyA, a)
  store.set(keyB, b)
  expect(store.get(keyA)).toEqual(a)
  expect(store.get(keyB)).toEqual(b)
  expect(store.has(`abcdef01${'3'.repeat(56)}`)).toBe(false)
  expect(store.delete(keyA)).toBe(true)
  expect(store.get(keyA)).toBeUndefined()
  expect(store.get(keyB)).toEqual(b)
  const code = `636f6465${'4'.repeat(64)}`
  store.set(code, a)
  expect(store.get(code)).toBe(a)
  expect(new Set(store.keys())).toEqual(new Set([keyB, code]))
})

test('a node larger than a slab is stored whole and its space let go when deleted', () => {
  const store = new MemoryNodes()
  const big = new Uint8Array(NODE_SLAB_BYTES + 10).fill(7)
  const key = hexKey(keccak256(big))
  store.set(key, big)
  expect(equalsBytes(store.get(key)!, big)).toBe(true)
  store.delete(key)
  expect(store.has(key)).toBe(false)
  expect(store.size).toBe(0)
})
