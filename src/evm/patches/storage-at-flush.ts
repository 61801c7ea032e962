/**
 * Storage written to its trie once, when the state manager flushes. @ethereumjs 10's putStorage puts the slot
 * in its storage cache and then, because the cache's put returns nothing and a `??` follows it, also writes it
 * through to the contract's storage trie at once: every SSTORE walked the storage trie, re-encoded and hashed
 * the nodes above the slot and re-serialized the account with the new storage root, and the flush at the next
 * commit at depth 0 wrote the same slot again (the second write skipped since unchanged-writes.ts, after one
 * more walk). The flush writes every slot its cache holds, so the state's roots are the same without the first
 * write; only the account's storage root read between the SSTORE and the flush is the old one, which the
 * EVM reads for EIP-7610's creation check alone, of an address with neither code nor nonce, which no SSTORE
 * of a block can have written (a contract's nonce is 1 from its creation on).
 */
import type { Common } from '@ethereumjs/common'
import { Caches, MerkleStateManager, type StorageCache } from '@ethereumjs/statemanager'
import { Address, createAccount, equalsBytes, KECCAK256_RLP } from '@ethereumjs/util'
import { storageCache } from './fields.js'

/**
 * Makes `state`'s putStorage put the slot in its storage cache only, as its flush writes it: the cache's put
 * answers `true`, so the `??` after it in putStorage stops there (the wrappers of putStorage, preimages.ts's,
 * still run). A state without a storage cache (there the write-through is the only write) or of a subclass
 * (fork mode's, whose slots read through to an upstream) keeps it.
 */
export function writeStorageAtFlush(state: MerkleStateManager): void {
  const cache = storageCache(state)
  if (!cache || Object.getPrototypeOf(state) !== MerkleStateManager.prototype) return
  const { put } = cache
  ;(cache as unknown as { put(...args: Parameters<StorageCache['put']>): boolean }).put = (address, key, value) => {
    put.call(cache, address, key, value)
    return true
  }
}

/**
 * installEvmPatches's check, on two throw-away state managers: the shipped putStorage still writes a slot
 * through to its trie (what this leaves out: the account's storage root moves before the commit), and one
 * written at flush only reads the slot back and commits to the same state root (what this relies on).
 */
export async function storageAtFlushHolds(common: Common): Promise<boolean> {
  const address = new Address(new Uint8Array(20).fill(0x5a))
  const slot = new Uint8Array(32).fill(7)
  const value = Uint8Array.of(0, 42)
  const roots: Uint8Array[] = []
  for (const patched of [false, true]) {
    const state = new MerkleStateManager({ common, caches: new Caches() })
    if (patched) writeStorageAtFlush(state)
    await state.putAccount(address, createAccount({ nonce: 1n }))
    await state.checkpoint()
    await state.putStorage(address, slot, value)
    const moved = !equalsBytes((await state.getAccount(address))!.storageRoot, KECCAK256_RLP)
    if (moved === patched || !equalsBytes(await state.getStorage(address, slot), value.subarray(1))) return false
    await state.commit()
    roots.push(await state.getStateRoot())
  }
  return equalsBytes(roots[0]!, roots[1]!) && !equalsBytes(roots[0]!, KECCAK256_RLP)
}
