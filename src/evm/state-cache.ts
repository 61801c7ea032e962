/**
 * The read path's state cache. A storage value is a function of the account's storage root and the slot,
 * and code of its hash, so values keyed by those stay right at every later state root: after a flashblock
 * only the accounts it wrote get a new storage root, and their slots alone miss. Nothing has to be told what
 * a block wrote, and nothing can go stale. Accounts themselves change with the root, so each root's
 * RootReader remembers its own (one trie walk per account per root). Misses are read by trie-reader.ts,
 * whose decoded nodes are shared by every root the same way.
 */
import type { MerkleStateManager } from '@ethereumjs/statemanager'
import {
  type Account,
  type Address,
  createAccountFromRLP,
  equalsBytes,
  KECCAK256_NULL,
  KECCAK256_RLP,
} from '@ethereumjs/util'
import { byteKey } from '../domain/map-keys.js'
import { STATE_CACHE_CODE_BYTES, STATE_CACHE_STORAGE_SLOTS, STATE_VIEW_ACCOUNTS } from '../limits.js'
import { BoundedMap } from './bounded-map.js'
import type { StateSource } from './execution/call-state.js'
import { type NodeStore, TrieReader } from './trie-reader.js'

const EMPTY = new Uint8Array(0)

/** Storage and code by content, and decoded trie nodes, shared by the read views of every root. */
export class StateCache {
  readonly storage = new BoundedMap<Uint8Array>(STATE_CACHE_STORAGE_SLOTS)
  readonly code = new BoundedMap<Uint8Array>(STATE_CACHE_CODE_BYTES, (code) => code.length + 64)
  readonly trie: TrieReader

  /** `nodes`: the chain's trie node store, which every committed root's nodes are in. */
  constructor(nodes: NodeStore) {
    this.trie = new TrieReader(nodes)
  }
}

/** Reads of one committed root: its accounts remembered, storage and code through the shared cache. */
export class RootReader implements StateSource {
  private readonly accounts = new BoundedMap<Account | null>(STATE_VIEW_ACCOUNTS)

  constructor(
    private readonly root: Uint8Array,
    /** The same root through @ethereumjs (code by hash, proofs): its reads do not fill this reader's account map. */
    readonly state: MerkleStateManager,
    private readonly cache: StateCache,
  ) {}

  /** The account at this root; shared, so never modify it (copy first). */
  async getAccount(address: Address): Promise<Account | undefined> {
    const key = byteKey(address.bytes)
    let account = this.accounts.get(key)
    if (account === undefined) {
      const rlp = await this.cache.trie.get(this.root, address.bytes)
      account = rlp === null ? null : createAccountFromRLP(rlp)
      this.accounts.set(key, account)
    }
    return account ?? undefined
  }

  async getCode(address: Address): Promise<Uint8Array> {
    const account = await this.getAccount(address)
    if (!account || equalsBytes(account.codeHash, KECCAK256_NULL)) return EMPTY
    const key = byteKey(account.codeHash)
    let code = this.cache.code.get(key)
    if (code === undefined) {
      code = await this.state.getCode(address)
      this.cache.code.set(key, code)
    }
    return code
  }

  cachedAccount(address: Address): Account | null | undefined {
    return this.accounts.get(byteKey(address.bytes))
  }

  cachedCode(address: Address): Uint8Array | undefined {
    const account = this.accounts.get(byteKey(address.bytes))
    if (account === undefined) return undefined
    if (account === null || equalsBytes(account.codeHash, KECCAK256_NULL)) return EMPTY
    return this.cache.code.get(byteKey(account.codeHash))
  }

  cachedStorage(address: Address, slot: Uint8Array): Uint8Array | undefined {
    const account = this.accounts.get(byteKey(address.bytes))
    if (account === undefined) return undefined
    if (account === null || equalsBytes(account.storageRoot, KECCAK256_RLP)) return EMPTY
    return this.cache.storage.get(byteKey(account.storageRoot, slot))
  }

  async getStorage(address: Address, slot: Uint8Array): Promise<Uint8Array> {
    const account = await this.getAccount(address)
    if (!account || equalsBytes(account.storageRoot, KECCAK256_RLP)) return EMPTY
    // the root's fixed width keeps root + slot unambiguous
    const key = byteKey(account.storageRoot, slot)
    let value = this.cache.storage.get(key)
    if (value === undefined) {
      value = await this.cache.trie.storage(account.storageRoot, slot)
      this.cache.storage.set(key, value)
    }
    return value
  }
}
