import { describe, expect, test } from 'vitest'
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager'
import { Address, bytesToHex, createAccount, KECCAK256_RLP } from '@ethereumjs/util'
import { createChainCommon } from '../chain-common.js'
import { memoryTrie } from '../state-views.js'
import { installEvmPatches, patchStateStorage } from './install.js'

const common = createChainCommon({ chainId: 196, gasLimit: 30_000_000n, baseFee: 1_000_000n })
const contract = new Address(new Uint8Array(20).fill(0xc0))
const other = new Address(new Uint8Array(20).fill(0xc1))
const slot = (n: number) => new Uint8Array(32).fill(n)

/** A state as the chain's (caches), its slots written at flush or, `shipped`, through to the trie as well. */
async function state(shipped: boolean): Promise<MerkleStateManager> {
  await installEvmPatches()
  const made = new MerkleStateManager({ common, trie: memoryTrie(common), caches: new Caches() })
  if (!shipped) patchStateStorage(made)
  for (const address of [contract, other]) await made.putAccount(address, createAccount({ nonce: 1n }))
  await made.getStateRoot()
  return made
}

describe('slots written at flush only', () => {
  test('give the roots and reads of the shipped write-through, through changes, zeroing, reverts, clears and a deletion', async () => {
    const steps: ((s: MerkleStateManager) => Promise<unknown>)[] = [
      (s) => s.putStorage(contract, slot(1), Uint8Array.of(1)),
      (s) => s.putStorage(contract, slot(2), Uint8Array.of(0, 0, 2)),
      (s) => s.putStorage(other, slot(1), Uint8Array.of(3)),
      async (s) => {
        await s.checkpoint()
        await s.putStorage(contract, slot(1), Uint8Array.of(9))
        await s.putStorage(contract, slot(3), Uint8Array.of(9))
        await s.revert()
      },
      (s) => s.putStorage(contract, slot(2), new Uint8Array()),
      async (s) => {
        await s.checkpoint()
        await s.putStorage(other, slot(4), Uint8Array.of(4))
        await s.commit()
      },
      (s) => s.clearStorage(other),
      (s) => s.putStorage(other, slot(5), Uint8Array.of(5)),
      (s) => s.deleteAccount(contract),
    ]
    const shipped = await state(true)
    const atFlush = await state(false)
    for (const step of steps) {
      // each step inside a checkpoint that is then committed, as runTx's transaction is: a flush at depth 0
      for (const s of [shipped, atFlush]) {
        await s.checkpoint()
        await step(s)
      }
      for (const address of [contract, other])
        for (const n of [1, 2, 3, 4, 5])
          expect(bytesToHex(await atFlush.getStorage(address, slot(n)))).toBe(
            bytesToHex(await shipped.getStorage(address, slot(n))),
          )
      for (const s of [shipped, atFlush]) await s.commit()
      expect(bytesToHex(await atFlush.getStateRoot())).toBe(bytesToHex(await shipped.getStateRoot()))
    }
    expect(bytesToHex(await atFlush.getStateRoot())).not.toBe(bytesToHex(KECCAK256_RLP))
  })

  test('leave the account’s storage root where it was until the flush, which the shipped putStorage moves at once', async () => {
    const storageRoot = async (s: MerkleStateManager) => bytesToHex((await s.getAccount(contract))!.storageRoot)
    const shipped = await state(true)
    const atFlush = await state(false)
    for (const s of [shipped, atFlush]) {
      await s.checkpoint()
      await s.putStorage(contract, slot(1), Uint8Array.of(1))
    }
    expect(await storageRoot(atFlush)).toBe(bytesToHex(KECCAK256_RLP))
    expect(await storageRoot(shipped)).not.toBe(bytesToHex(KECCAK256_RLP))
    for (const s of [shipped, atFlush]) await s.commit()
    expect(await storageRoot(atFlush)).toBe(await storageRoot(shipped))
  })
})
