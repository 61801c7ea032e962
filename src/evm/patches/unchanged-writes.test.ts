import { describe, expect, test } from 'vitest'
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager'
import { Address, bytesToHex, createAccount } from '@ethereumjs/util'
import { createChainCommon } from '../chain-common.js'
import { memoryTrie } from '../state-views.js'
import { skipUnchangedStorage, skipUnchangedWrites } from './unchanged-writes.js'

const common = createChainCommon({ chainId: 196, gasLimit: 30_000_000n, baseFee: 1_000_000n })

/** A memory trie and the number of node writes its store took. */
function countedTrie() {
  const nodes = new Map<string, Uint8Array>()
  let writes = 0
  const set = nodes.set.bind(nodes)
  nodes.set = (key, value) => {
    writes++
    return set(key, value)
  }
  return { trie: memoryTrie(common, nodes), writes: () => writes }
}

const bytes = (...values: number[]) => Uint8Array.from(values)

describe('a trie that skips unchanged writes', () => {
  test('reaches the roots of one that writes everything, through repeats, changes, deletes and a revert', async () => {
    const plain = countedTrie()
    const skipping = countedTrie()
    skipUnchangedWrites(skipping.trie)
    const steps: [key: number, value: number][] = [
      [1, 10],
      [2, 20],
      [1, 10],
      [3, 30],
      [2, 21],
      [2, 21],
      [3, 0],
      [3, 30],
      [1, 10],
    ]
    for (const [key, value] of steps) {
      for (const { trie } of [plain, skipping])
        await trie.put(bytes(key), value === 0 ? new Uint8Array() : bytes(value))
      expect(bytesToHex(skipping.trie.root())).toBe(bytesToHex(plain.trie.root()))
    }
    for (const { trie } of [plain, skipping]) {
      trie.checkpoint()
      await trie.put(bytes(1), bytes(10))
      await trie.put(bytes(2), bytes(22))
      await trie.revert()
    }
    expect(bytesToHex(skipping.trie.root())).toBe(bytesToHex(plain.trie.root()))
    expect(skipping.writes()).toBeLessThan(plain.writes())
  })

  test("a state manager over it writes back only the slots that changed, and its roots are the plain one's", async () => {
    const contract = new Address(new Uint8Array(20).fill(0xc0))
    const run = async (skip: boolean) => {
      const { trie, writes } = countedTrie()
      if (skip) skipUnchangedWrites(trie)
      const state = new MerkleStateManager({ common, trie, caches: new Caches() })
      await state.putAccount(contract, createAccount({ nonce: 1n }))
      const roots: string[] = []
      for (let block = 1; block <= 4; block++) {
        await state.checkpoint()
        // most slots written again with what they hold (L1Block's fields within one L1 origin), one changed
        for (let slot = 0; slot < 8; slot++) {
          const key = new Uint8Array(32)
          key[31] = slot
          await state.putStorage(contract, key, bytes(slot === 0 ? block : slot + 1))
        }
        await state.commit()
        roots.push(bytesToHex(await state.getStateRoot()))
      }
      return { roots, writes: writes() }
    }
    const plain = await run(false)
    const skipping = await run(true)
    expect(skipping.roots).toEqual(plain.roots)
    expect(new Set(plain.roots).size).toBe(4)
    expect(skipping.writes).toBeLessThan(plain.writes)
  })

  test("a state manager that leaves out same-value storage writes reaches the plain one's roots, and refuses what it refuses", async () => {
    const contract = new Address(new Uint8Array(20).fill(0xc0))
    const run = async (skip: boolean) => {
      const state = new MerkleStateManager({ common, trie: memoryTrie(common), caches: new Caches() })
      if (skip) skipUnchangedStorage(state)
      await state.putAccount(contract, createAccount({ nonce: 1n }))
      const roots: string[] = []
      const slot = (n: number) => {
        const key = new Uint8Array(32)
        key[31] = n
        return key
      }
      // the same value again, a zero to an empty slot, a value padded with zeros, a delete, inside a reverted checkpoint
      const writes: [number, Uint8Array][] = [
        [0, bytes(1)],
        [0, bytes(1)],
        [1, new Uint8Array()],
        [2, bytes(0, 0, 9)],
        [2, bytes(9)],
        [0, new Uint8Array(32)],
        [0, bytes(1)],
      ]
      for (const [n, value] of writes) {
        await state.putStorage(contract, slot(n), value)
        roots.push(bytesToHex(await state.getStateRoot()))
      }
      await state.checkpoint()
      await state.putStorage(contract, slot(2), bytes(9))
      await state.putStorage(contract, slot(3), bytes(4))
      await state.revert()
      roots.push(bytesToHex(await state.getStateRoot()))
      const refused = await state
        .putStorage(new Address(new Uint8Array(20)), slot(0), new Uint8Array())
        .catch((e) => e.message)
      return { roots, refused }
    }
    const plain = await run(false)
    expect(await run(true)).toEqual(plain)
    expect(plain.refused).toMatch(/non-existing account/)
  })
})
