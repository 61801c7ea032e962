/**
 * The read path's state cache. A storage value is a function of the account's storage root and the slot,
 * and code of its hash, so values keyed by those stay right at every later state root: after a flashblock
 * only the accounts it wrote get a new storage root, and their slots alone miss. Nothing has to be told what
 * a block wrote, and nothing can go stale. Accounts themselves change with the root, so each root's
 * RootReader remembers its own (one trie walk per account per root). Accounts and slots are kept from their
 * second read on, or their first when read at an earlier root (doorkeeper.ts): one read once (a new address in
 * every request) would only make work for the collector. Misses are read by trie-reader.ts, whose decoded
 * nodes are shared by every root the same way.
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
import { byteKey, bytesId, bytesMix, FNV_START, hashId } from '../domain/map-keys.js'
import { SEEN_IDS, STATE_CACHE_CODE_BYTES, STATE_CACHE_STORAGE_SLOTS, STATE_VIEW_ACCOUNTS } from '../limits.js'
import { BoundedMap } from './bounded-map.js'
import { Doorkeeper } from './doorkeeper.js'
import { keccak256 } from './crypto.js'
import { accountOf, slotValueOf } from './flat-values.js'
import type { SnapshotReads } from './state-snapshot.js'
import type { StateSource } from './execution/call-state.js'
import { type NodeStore, TrieReader } from './trie-reader.js'

const EMPTY = new Uint8Array(0)

/** A slot's value and what names it (the cache's key is only part of that: slotId). */
type Slot = { storageRoot: Uint8Array; slot: Uint8Array; value: Uint8Array }

/**
 * The storage cache's key of a slot under a storage root: a number, which a Map hashes without making a string
 * (a 64-byte string key was a third of a new slot's read). Slots of one contract differ in their last bytes
 * (0, 1, 2...) or all over (a mapping's keccak): both end words are mixed in. Entries keep root and slot.
 */
function slotId(storageRoot: Uint8Array, slot: Uint8Array): number {
  return (hashId(storageRoot) ^ hashId(slot) ^ Math.imul(hashId(slot, slot.length - 4), 0x9e3779b1)) >>> 1
}

/** Storage and code by content, and decoded trie nodes, shared by the read views of every root. */
export class StateCache {
  readonly storage = new BoundedMap<Slot, number>(STATE_CACHE_STORAGE_SLOTS)
  readonly code = new BoundedMap<Uint8Array>(STATE_CACHE_CODE_BYTES, (code) => code.length + 64)
  readonly trie: TrieReader
  /** Addresses read before, at any root: a root's reader remembers an account from its second read on. */
  readonly accountsRead = new Doorkeeper(SEEN_IDS)
  /** Slots (by address and slot) read from the trie before: `storage` keeps one from its second read on. */
  readonly slotsRead = new Doorkeeper(SEEN_IDS)

  /** `nodes`: the chain's trie node store, which every committed root's nodes are in. */
  constructor(nodes: NodeStore) {
    this.trie = new TrieReader(nodes)
  }

  /** The slot's value under the storage root if it is cached (an entry under the same id may be another's). */
  knownSlot(storageRoot: Uint8Array, slot: Uint8Array): Uint8Array | undefined {
    const known = this.storage.get(slotId(storageRoot, slot))
    if (known !== undefined && equalsBytes(known.slot, slot) && equalsBytes(known.storageRoot, storageRoot))
      return known.value
    return undefined
  }
}

/** Reads of one committed root: its accounts remembered, storage and code through the shared cache. */
export class RootReader implements StateSource {
  private readonly accounts = new BoundedMap<Account | null>(STATE_VIEW_ACCOUNTS)
  private lastAddress: Uint8Array = EMPTY
  private lastHash: Uint8Array = EMPTY
  private made: MerkleStateManager | undefined

  constructor(
    private readonly root: Uint8Array,
    /** Makes `state`. */
    private readonly makeState: () => MerkleStateManager,
    private readonly cache: StateCache,
    /** The state snapshot's reads of this root (state-snapshot.ts): accounts and slots without a trie walk. */
    private readonly flat?: SnapshotReads,
  ) {}

  /**
   * The same root through @ethereumjs (code by hash, proofs): its reads do not fill this reader's account map.
   * Made at its first use: most roots' reads never need it (the snapshot and the caches answer them), and
   * making it (a trie copy, a state manager with its caches and debug loggers) was ~0.3-0.8 ms of the first
   * call at every new block's root, and at every flashblock's on /flashblocks.
   */
  get state(): MerkleStateManager {
    if (this.made === undefined) this.made = this.makeState()
    return this.made
  }

  /** The account at this root; shared, so never modify it (copy first). */
  async getAccount(address: Address): Promise<Account | undefined> {
    const account = this.readAccount(address)
    return (account instanceof Promise ? await account : account) ?? undefined
  }

  /** The account, or null; without a promise when this root read it before or its trie path is in memory. */
  readAccount(address: Address): Account | null | Promise<Account | null> {
    const key = byteKey(address.bytes)
    const known = this.accounts.get(key)
    if (known !== undefined) return known
    const flat = this.flat?.account(this.hashed(address))
    if (flat !== undefined) return this.remember(key, address, flat && accountOf(flat))
    const rlp = this.cache.trie.get(this.root, address.bytes)
    return rlp instanceof Promise
      ? rlp.then((read) => this.fromTrie(key, address, read))
      : this.fromTrie(key, address, rlp)
  }

  /** The address's hash, the snapshot's key; the last one kept (a call reads one contract's slots in a row). */
  private hashed(address: Address): Uint8Array {
    const { bytes } = address
    if (!equalsBytes(this.lastAddress, bytes)) {
      // into the last one's array: a copy made its own buffer (~230 B), at every read of a new address
      if (this.lastAddress.length === bytes.length) this.lastAddress.set(bytes)
      else this.lastAddress = bytes.slice()
      this.lastHash = keccak256(bytes)
    }
    return this.lastHash
  }

  private fromTrie(key: string, address: Address, rlp: Uint8Array | null): Account | null {
    return this.remember(key, address, rlp === null ? null : createAccountFromRLP(rlp))
  }

  private remember(key: string, address: Address, account: Account | null): Account | null {
    if (this.cache.accountsRead.again(bytesId(address.bytes))) this.accounts.set(key, account)
    return account
  }

  async getCode(address: Address): Promise<Uint8Array> {
    return this.readCode(address)
  }

  /** The account's code; without a promise when the account is at hand and its code cached. */
  readCode(address: Address): Uint8Array | Promise<Uint8Array> {
    const read = this.readAccount(address)
    return read instanceof Promise ? read.then((account) => this.codeOf(address, account)) : this.codeOf(address, read)
  }

  private codeOf(address: Address, account: Account | null): Uint8Array | Promise<Uint8Array> {
    if (!account || equalsBytes(account.codeHash, KECCAK256_NULL)) return EMPTY
    const key = byteKey(account.codeHash)
    const code = this.cache.code.get(key)
    if (code !== undefined) return code
    return this.state.getCode(address).then((read) => {
      this.cache.code.set(key, read)
      return read
    })
  }

  async getStorage(address: Address, slot: Uint8Array): Promise<Uint8Array> {
    return this.readStorage(address, slot)
  }

  /**
   * The slot's value; without a promise when it is cached or its trie path is in memory (a slot nobody read
   * before, on the in-memory chain: no frame of the interpreter has to wait for it).
   */
  readStorage(address: Address, slot: Uint8Array): Uint8Array | Promise<Uint8Array> {
    const read = this.readAccount(address)
    return read instanceof Promise
      ? read.then((account) => this.slotOf(address, account, slot))
      : this.slotOf(address, read, slot)
  }

  private slotOf(address: Address, account: Account | null, slot: Uint8Array): Uint8Array | Promise<Uint8Array> {
    if (!account || equalsBytes(account.storageRoot, KECCAK256_RLP)) return EMPTY
    const { storageRoot } = account
    const known = this.cache.knownSlot(storageRoot, slot)
    if (known !== undefined) return known
    // not kept in the slot cache: a slot read once through the snapshot costs a lookup the next time too
    const flat = this.flat?.storage(this.hashed(address), keccak256(slot))
    if (flat !== undefined) return flat === null ? EMPTY : slotValueOf(flat)
    const stored = this.cache.trie.storage(storageRoot, slot)
    return stored instanceof Promise
      ? stored.then((value) => this.keepSlot(address, storageRoot, slot, value))
      : this.keepSlot(address, storageRoot, slot, stored)
  }

  private keepSlot(address: Address, storageRoot: Uint8Array, slot: Uint8Array, value: Uint8Array): Uint8Array {
    // seen by address, not storage root: a slot read before its contract's last write is kept at its first read
    if (!this.cache.slotsRead.again(bytesMix(bytesMix(FNV_START, address.bytes), slot) >>> 1)) return value
    // copies: the root is a view of a trie node's bytes, which pruning may otherwise let go
    this.cache.storage.set(slotId(storageRoot, slot), { storageRoot: storageRoot.slice(), slot: slot.slice(), value })
    return value
  }
}
