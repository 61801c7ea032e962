/**
 * The data directory's packed node cache (node-cache.ts): it answers what was put, lets the oldest go when full,
 * keeps what is read, forgets what is deleted, and a copy it handed out stays as it was.
 */
import { equalsBytes, randomBytes } from '@ethereumjs/util'
import { expect, test } from 'vitest'
import { keccak256 } from '../../evm/crypto.js'
import { NodeCache } from './node-cache.js'

/** `count` nodes of 30-600 bytes, named by their hash as a trie names them. */
function nodes(count: number): [Uint8Array, Uint8Array][] {
  return Array.from({ length: count }, (_, i) => {
    const bytes = randomBytes(30 + ((i * 37) % 570))
    return [keccak256(bytes), bytes]
  })
}

const SIZE = 1 << 16

test('every node put reads back byte for byte while the cache has room', () => {
  const cache = new NodeCache(SIZE)
  const put = nodes(80)
  for (const [key, bytes] of put) cache.set(key, bytes)
  for (const [key, bytes] of put) expect(equalsBytes(cache.get(key)!, bytes)).toBe(true)
  expect(cache.get(keccak256(randomBytes(8)))).toBeUndefined()
})

test('the oldest nodes are let go once twice the young generation has been written', () => {
  const cache = new NodeCache(SIZE)
  const put = nodes(600) // ~190 KB: about six generations of 32 KB
  for (const [key, bytes] of put) cache.set(key, bytes)
  expect(cache.get(put[0]![0])).toBeUndefined()
  const [lastKey, lastBytes] = put.at(-1)!
  expect(equalsBytes(cache.get(lastKey)!, lastBytes)).toBe(true)
  const kept = put.filter(([key]) => cache.get(key) !== undefined).length
  expect(kept).toBeGreaterThan(50)
  expect(kept).toBeLessThan(400)
})

test('a node read while it is old stays when the nodes written beside it are let go', () => {
  const cache = new NodeCache(SIZE)
  const [read, ...rest] = nodes(600)
  cache.set(read![0], read![1])
  for (const [i, [key, bytes]] of rest.entries()) {
    cache.set(key, bytes)
    if (i % 20 === 0) expect(equalsBytes(cache.get(read![0])!, read![1])).toBe(true)
  }
  expect(equalsBytes(cache.get(read![0])!, read![1])).toBe(true)
  expect(cache.get(rest[0]![0])).toBeUndefined()
})

test('a deleted node is not answered, in either generation, until it is put again', () => {
  const cache = new NodeCache(SIZE)
  const put = nodes(200)
  for (const [key, bytes] of put) cache.set(key, bytes)
  const [oldKey] = put.find(([key]) => cache.get(key) !== undefined)!
  const [youngKey, youngBytes] = put.at(-1)!
  cache.delete(oldKey)
  cache.delete(youngKey)
  expect(cache.get(oldKey)).toBeUndefined()
  expect(cache.get(youngKey)).toBeUndefined()
  cache.set(youngKey, youngBytes)
  expect(equalsBytes(cache.get(youngKey)!, youngBytes)).toBe(true)
})

test('bytes handed out stay as they were while the cache turns over, and changing them changes nothing kept', () => {
  const cache = new NodeCache(SIZE)
  const [first, ...rest] = nodes(600)
  cache.set(first![0], first![1])
  const handedOut = cache.get(first![0])!
  handedOut.fill(0)
  expect(equalsBytes(cache.get(first![0])!, first![1])).toBe(true)
  const copy = cache.get(first![0])!
  for (const [key, bytes] of rest) cache.set(key, bytes)
  expect(equalsBytes(copy, first![1])).toBe(true)
})

test('keys that are not 32-byte hashes are never kept', () => {
  const cache = new NodeCache(SIZE)
  const short = randomBytes(20)
  cache.set(short, randomBytes(40))
  expect(cache.get(short)).toBeUndefined()
})
