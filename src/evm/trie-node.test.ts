import { BranchMPTNode, decodeMPTNode, type ExtensionMPTNode, LeafMPTNode, MerklePatriciaTrie } from '@ethereumjs/mpt'
import { MapDB, ValueEncoding } from '@ethereumjs/util'
import { expect, test } from 'vitest'
import { keccak256 } from './crypto.js'
import { readNode, ViewBranch } from './trie-node.js'

const bytesOf = (seed: number, length: number) => keccak256(Uint8Array.of(seed >> 8, seed & 255)).slice(0, length)

/** Every stored node of a trie holding `entries`. */
async function storedNodes(entries: [Uint8Array, Uint8Array][], hashed: boolean): Promise<Uint8Array[]> {
  const nodes = new Map<string, Uint8Array>()
  const trie = new MerklePatriciaTrie({
    useKeyHashing: hashed,
    db: new MapDB(nodes),
    valueEncoding: ValueEncoding.Bytes,
  })
  for (const [key, value] of entries) await trie.put(key, value)
  return [...nodes.values()]
}

/** A hashed trie of 300 keys, and a raw-key one whose small leaves are inlined in their branch and extension. */
async function sampleNodes(): Promise<Uint8Array[]> {
  const hashed = Array.from({ length: 300 }, (_, i) => [bytesOf(i, 20), bytesOf(i + 1000, 1 + (i % 90))])
  const prefix = bytesOf(1, 30)
  const raw: [Uint8Array, Uint8Array][] = []
  for (let a = 0; a < 4; a++) for (let b = 0; b < 3; b++) raw.push([Uint8Array.of(...prefix, a, b), Uint8Array.of(a)])
  raw.push([Uint8Array.of(...prefix), bytesOf(2, 3)]) // a value in a branch
  raw.push([Uint8Array.of(...prefix, 9, 9), bytesOf(3, 60)])
  return [...(await storedNodes(hashed as [Uint8Array, Uint8Array][], true)), ...(await storedNodes(raw, false))]
}

test('every node of a trie reads as @ethereumjs decodes it: branches (with inlined children and a value), extensions, leaves', async () => {
  const kinds = new Set<string>()
  for (const stored of await sampleNodes()) {
    const expected = decodeMPTNode(stored)
    const node = readNode(stored)
    expect(node).toBeInstanceOf(expected.constructor)
    expect(node.raw()).toEqual(expected.raw())
    expect(node.serialize()).toEqual(stored)
    expect(node.value()).toEqual(expected.value())
    if (expected instanceof BranchMPTNode) {
      kinds.add(expected.value() ? 'branch with a value' : 'branch')
      for (let nibble = 0; nibble < 16; nibble++) {
        const child = expected.getBranch(nibble)
        expect((node as BranchMPTNode).getBranch(nibble)).toEqual(child)
        if (Array.isArray(child)) kinds.add('inlined child')
      }
      expect((node as BranchMPTNode).getChildren()).toEqual(expected.getChildren())
    } else {
      kinds.add(expected instanceof LeafMPTNode ? 'leaf' : 'extension')
      expect((node as LeafMPTNode | ExtensionMPTNode).key()).toEqual(expected.key())
    }
  }
  expect([...kinds].sort()).toEqual(['branch', 'branch with a value', 'extension', 'inlined child', 'leaf'])
})

test('two branches have the same child where their references are the same bytes, and only there', async () => {
  const branches = (await sampleNodes()).map(readNode).filter((n) => n instanceof ViewBranch) as ViewBranch[]
  expect(branches.length).toBeGreaterThan(10)
  for (const a of branches.slice(0, 10))
    for (const b of branches.slice(0, 10))
      for (let nibble = 0; nibble < 16; nibble++)
        expect(a.sameChild(nibble, b)).toBe(JSON.stringify(a.getBranch(nibble)) === JSON.stringify(b.getBranch(nibble)))
})

test('bytes that are not a node are refused, and a read-only branch refuses writes', () => {
  for (const bad of [
    Uint8Array.of(),
    Uint8Array.of(0x80),
    Uint8Array.of(0xc3, 0x80),
    Uint8Array.of(0xc2, 0x80, 0x80, 0x80),
  ])
    expect(() => readNode(bad)).toThrow(/state trie node/)
  const branch = readNode(Uint8Array.of(0xd1, ...new Array(17).fill(0x80))) as ViewBranch
  expect(branch.getBranch(3)).toBeNull()
  expect(() => branch.setBranch()).toThrow(/read-only/)
})
