import { BranchMPTNode, decodeMPTNode, type ExtensionMPTNode, LeafMPTNode, MerklePatriciaTrie } from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'
import { MapDB, ValueEncoding, bytesToHex } from '@ethereumjs/util'
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
async function makeSampleNodes(): Promise<Uint8Array[]> {
  const hashed = Array.from({ length: 300 }, (_, i) => [bytesOf(i, 20), bytesOf(i + 1000, 1 + (i % 90))])
  const prefix = bytesOf(1, 30)
  const raw: [Uint8Array, Uint8Array][] = []
  for (let a = 0; a < 4; a++) for (let b = 0; b < 3; b++) raw.push([Uint8Array.of(...prefix, a, b), Uint8Array.of(a)])
  raw.push([Uint8Array.of(...prefix), bytesOf(2, 3)]) // a value in a branch
  raw.push([Uint8Array.of(...prefix, 9, 9), bytesOf(3, 60)])
  return [...(await storedNodes(hashed as [Uint8Array, Uint8Array][], true)), ...(await storedNodes(raw, false))]
}

let sampled: Promise<Uint8Array[]> | undefined
/** The sample, made once for the file. */
const sampleNodes = () => (sampled ??= makeSampleNodes())

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

const refuses = (read: () => unknown) => {
  try {
    read()
    return false
  } catch {
    return true
  }
}

/** A branch of 17 empty strings with its list header rewritten, or one item replaced by `item`. */
const branchWith = (item: number[]) => {
  const body = [...item, ...new Array(16).fill(0x80)]
  return Uint8Array.of(0xc0 + body.length, ...body)
}

test('malformed RLP is refused wherever RLP.decode refuses it: past the end, lengths not in their shortest form, trailing bytes', () => {
  const long = new Array(56).fill(0x61)
  const table: [string, Uint8Array][] = [
    ['a list header longer than the bytes', Uint8Array.of(0xd2, ...new Array(17).fill(0x80))],
    ['an item longer than its list', Uint8Array.of(0xc3, 0x80, 0x85, 1)],
    ['a long string whose length bytes are missing', branchWith([0xb9, 0x01])],
    ['a long list whose length runs past the end', Uint8Array.of(0xf9, 0x01)],
    ['a trailing byte after the node', Uint8Array.of(0xd1, ...new Array(17).fill(0x80), 0x80)],
    ['a byte below 0x80 given a one-byte string header', branchWith([0x81, 0x05])],
    ['a string of 3 bytes in the long form', branchWith([0xb8, 0x03, 1, 2, 3])],
    ['a string length with a leading zero', branchWith([0xb9, 0x00, 0x38, ...long])],
    ['a list in the long form under 56 bytes', Uint8Array.of(0xf8, 0x11, ...new Array(17).fill(0x80))],
    ['an inlined child list whose item runs past it', branchWith([0xc2, 0x83, 1])],
    ['an inlined child with a non-canonical string', branchWith([0xc2, 0x81, 0x01])],
  ]
  for (const [what, bytes] of table) {
    expect(
      refuses(() => RLP.decode(bytes)),
      what,
    ).toBe(true)
    expect(() => readNode(bytes), what).toThrow(/state trie node/)
  }
  // the long forms that are canonical (56 bytes and over) read as decode reads them
  const leaf = Uint8Array.of(0xf8, 0x3d, 0x82, 0x20, 0x01, 0xb8, 0x38, ...long)
  expect(readNode(leaf).raw()).toEqual(decodeMPTNode(leaf).raw())
})

test('nodes with bytes changed, cut or added: refused wherever RLP.decode refuses them, read as decodeMPTNode reads them otherwise', async () => {
  let seed = 7
  const next = (below: number) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31
    return seed % below
  }
  const attempt = <T>(read: () => T): T | undefined => {
    try {
      return read()
    } catch {
      return undefined
    }
  }
  const samples = (await sampleNodes()).filter((_, i) => i % 4 === 0)
  const wrong: string[] = []
  let refused = 0
  let read = 0
  for (const stored of samples)
    for (let round = 0; round < 24; round++) {
      const bytes = Uint8Array.from(stored)
      const mutated =
        round % 4 === 0
          ? bytes.subarray(0, next(bytes.length))
          : round % 4 === 1
            ? Uint8Array.of(...bytes, next(256))
            : (() => {
                // mostly header bytes: the first few of the node and of its items
                bytes[next(round % 4 === 2 ? Math.min(bytes.length, 4) : bytes.length)] = next(256)
                return bytes
              })()
      const ours = attempt(() => readNode(mutated))
      if (refuses(() => RLP.decode(mutated))) {
        if (ours) wrong.push(`read what RLP.decode refuses: ${bytesToHex(mutated)}`)
        refused++
        continue
      }
      const theirs = attempt(() => decodeMPTNode(mutated))
      if (!ours || !theirs) continue
      if (bytesToHex(RLP.encode(ours.raw())) !== bytesToHex(RLP.encode(theirs.raw())))
        wrong.push(`read unlike decodeMPTNode: ${bytesToHex(mutated)}`)
      read++
    }
  expect(wrong).toEqual([])
  expect(refused).toBeGreaterThan(100)
  expect(read).toBeGreaterThan(20)
})
