/**
 * An @ethereumjs state manager over one upstream block's state: reads come from an UpstreamSnapshot
 * (batched, prefetched, cached per block), writes stay in a local overlay, so the follower can re-execute a
 * flashblock's transactions on its parent block. Checkpoints journal every overlay write and `commit` keeps
 * a nested frame's undo log for the outer frame (RPCStateManager 10.1.3 commits only its account cache, so a
 * reverted storage write survives: evm-engine.md section 6). Roots cannot be computed without the whole
 * trie: `root` is whatever the caller knows (the upstream block's, then the feed's per flashblock). Storage
 * roots neither: an account shows the empty one unless `prepareCreation` learned the upstream's, which only
 * EIP-7610's creation check reads (create-collision.ts).
 */
import type { AccountFields, Common, StateManagerInterface } from '@ethereumjs/common'
import { OriginalStorageCache } from '@ethereumjs/statemanager'
import { Account, type Address, KECCAK256_NULL, KECCAK256_RLP, equalsBytes, unpadBytes } from '@ethereumjs/util'
import { keyOf } from '../domain/block-record.js'
import { keccak256 } from '../evm/crypto.js'
import { UpstreamStateError } from '../errors.js'
import { accountOf, type UpstreamAccount, type UpstreamSnapshot } from './upstream-snapshot.js'

/**
 * An account as written here: its fields, not its RLP (the EVM writes an account several times a
 * transaction; encoding and decoding each write cost more than the transfer itself). No storage root: the
 * one read shows is this state's knowledge (storageRootOf), not what the EVM last wrote back.
 */
interface AccountFieldsWritten {
  readonly nonce: bigint
  readonly balance: bigint
  readonly codeHash: Uint8Array
}

/** The upstream's account as the EVM reads it, with the storage root this state knows. */
function upstreamAccount(upstream: UpstreamAccount | null, storageRoot: Uint8Array): Account | null {
  if (upstream) return accountOf(upstream, storageRoot)
  // no nonce, balance or code, but storage: an account all the same (EIP-7610's case)
  return storageRoot === KECCAK256_RLP ? null : new Account(0n, 0n, storageRoot, KECCAK256_NULL)
}

/** Local writes; `null` account = deleted (or never created) here, whatever the upstream has. */
interface Overlay {
  readonly accounts: Map<string, AccountFieldsWritten | null>
  readonly code: Map<string, Uint8Array>
  readonly storage: Map<string, Map<string, Uint8Array>>
  /** Addresses whose upstream storage no longer shows through (cleared, deleted, re-created). */
  readonly cleared: Map<string, true>
}

const EMPTY = new Uint8Array()

export class UpstreamStateManager implements StateManagerInterface {
  readonly originalStorageCache: OriginalStorageCache
  /** The state root as far as the caller knows it (getStateRoot answers it). */
  root: Uint8Array | undefined
  private readonly overlay: Overlay
  private readonly journal: (() => void)[][] = []
  /** A creation's storage root did not load: no read answers from now on (the collision check would be a guess). */
  private fault: Error | undefined

  constructor(
    readonly snapshot: UpstreamSnapshot,
    readonly common: Common,
    options: { root?: Uint8Array; overlay?: Overlay } = {},
  ) {
    this.root = options.root
    this.overlay = options.overlay ?? { accounts: new Map(), code: new Map(), storage: new Map(), cleared: new Map() }
    this.originalStorageCache = new OriginalStorageCache(this.getStorage.bind(this))
  }

  /** Journal depth; FlashBuilder reads it (as on MerkleStateManager) to catch a leaked checkpoint. */
  get _checkpointCount(): number {
    return this.journal.length
  }

  async getAccount(address: Address): Promise<Account | undefined> {
    return (await this.readAccount(address)) ?? undefined
  }

  /**
   * getAccount's answer, without a promise where it is at hand (written here, or loaded from the upstream
   * already): the EVM interpreter's host reads so (execution/call-state.ts StateSource). null: no account.
   */
  readAccount(address: Address): Account | null | Promise<Account | null> {
    if (this.fault) return Promise.reject(this.fault)
    const key = keyOf(address.bytes)
    const local = this.overlay.accounts.get(key)
    const storageRoot = this.storageRootOf(address.bytes, key)
    // a fresh Account each read: the EVM mutates what it gets
    if (local !== undefined)
      return local === null ? null : new Account(local.nonce, local.balance, storageRoot, local.codeHash)
    const loaded = this.snapshot.loadedAccount(address.bytes)
    if (loaded !== undefined) return upstreamAccount(loaded, storageRoot)
    return this.snapshot.account(address.bytes).then((upstream) => upstreamAccount(upstream ?? null, storageRoot))
  }

  async putAccount(address: Address, account?: Account): Promise<void> {
    if (account === undefined) return this.deleteAccount(address)
    const { nonce, balance, codeHash } = account
    this.set(this.overlay.accounts, keyOf(address.bytes), { nonce, balance, codeHash })
  }

  /**
   * Before a creation at `address`: whether it collides can turn on its storage alone (EIP-7610: no nonce,
   * no code, but slots), which value reads cannot see, so the upstream's storage root is loaded then and
   * only then, and getAccount shows it from now on. Not asked where nonce or code decide, or where this
   * state cleared the storage. Rejects as any upstream read does.
   */
  async prepareCreation(address: Address): Promise<void> {
    const key = keyOf(address.bytes)
    if (this.overlay.cleared.has(key) || this.snapshot.knownStorageRoot(address.bytes)) return
    const account = await this.getAccount(address)
    if (account && (account.nonce > 0n || !equalsBytes(account.codeHash, KECCAK256_NULL))) return
    await this.snapshot.storageRoot(address.bytes)
  }

  /** Where prepareCreation (or finding its target) failed: every account read rejects with the reason. */
  failCreation(err: Error): void {
    this.fault = new UpstreamStateError(
      `the storage root a creation's collision check needs did not load: ${err.message}`,
    )
  }

  async deleteAccount(address: Address): Promise<void> {
    const key = keyOf(address.bytes)
    this.set(this.overlay.accounts, key, null)
    this.set(this.overlay.code, key, EMPTY)
    this.set(this.overlay.storage, key, new Map())
    this.set(this.overlay.cleared, key, true)
  }

  async modifyAccountFields(address: Address, fields: AccountFields): Promise<void> {
    const account = (await this.getAccount(address)) ?? new Account()
    if (fields.nonce !== undefined) account.nonce = fields.nonce
    if (fields.balance !== undefined) account.balance = fields.balance
    if (fields.codeHash !== undefined) account.codeHash = fields.codeHash
    await this.putAccount(address, account)
  }

  async putCode(address: Address, value: Uint8Array): Promise<void> {
    const account = (await this.getAccount(address)) ?? new Account()
    account.codeHash = value.length ? keccak256(value) : KECCAK256_NULL
    this.set(this.overlay.code, keyOf(address.bytes), value)
    await this.putAccount(address, account)
  }

  async getCode(address: Address): Promise<Uint8Array> {
    return this.readCode(address)
  }

  /** getCode's answer, without a promise where it is at hand (see readAccount). */
  readCode(address: Address): Uint8Array | Promise<Uint8Array> {
    const key = keyOf(address.bytes)
    const local = this.overlay.code.get(key)
    if (local !== undefined) return local
    if (this.overlay.accounts.get(key) === null) return EMPTY
    const loaded = this.snapshot.loadedAccount(address.bytes)
    if (loaded !== undefined) return loaded?.code ?? EMPTY
    return this.snapshot.account(address.bytes).then((upstream) => upstream?.code ?? EMPTY)
  }

  async getCodeSize(address: Address): Promise<number> {
    return (await this.getCode(address)).length
  }

  async getStorage(address: Address, slot: Uint8Array): Promise<Uint8Array> {
    return this.readStorage(address, slot)
  }

  /** getStorage's answer, without a promise where it is at hand (see readAccount). */
  readStorage(address: Address, slot: Uint8Array): Uint8Array | Promise<Uint8Array> {
    if (slot.length !== 32) return Promise.reject(new UpstreamStateError('storage key must be 32 bytes long'))
    const key = keyOf(address.bytes)
    const local = this.overlay.storage.get(key)?.get(keyOf(slot))
    if (local !== undefined) return local
    if (this.overlay.cleared.has(key)) return EMPTY
    return this.snapshot.loadedStorage(address.bytes, slot) ?? this.snapshot.storage(address.bytes, slot)
  }

  async putStorage(address: Address, slot: Uint8Array, value: Uint8Array): Promise<void> {
    const key = keyOf(address.bytes)
    let slots = this.overlay.storage.get(key)
    if (!slots) this.set(this.overlay.storage, key, (slots = new Map()))
    this.set(slots, keyOf(slot), unpadBytes(value))
  }

  async clearStorage(address: Address): Promise<void> {
    const key = keyOf(address.bytes)
    this.set(this.overlay.storage, key, new Map())
    this.set(this.overlay.cleared, key, true)
  }

  async checkpoint(): Promise<void> {
    this.journal.push([])
  }

  async commit(): Promise<void> {
    const frame = this.journal.pop()
    if (!frame) throw new UpstreamStateError('commit without a checkpoint')
    // the outer frame must still be able to undo what this one did
    this.journal.at(-1)?.push(...frame)
  }

  async revert(): Promise<void> {
    const frame = this.journal.pop()
    if (!frame) throw new UpstreamStateError('revert without a checkpoint')
    for (let i = frame.length - 1; i >= 0; i--) frame[i]()
  }

  async getStateRoot(): Promise<Uint8Array> {
    if (!this.root) throw new UpstreamStateError('the state root of upstream-backed state is not known here')
    return this.root
  }

  async setStateRoot(root: Uint8Array): Promise<void> {
    if (!this.root || !equalsBytes(root, this.root))
      throw new UpstreamStateError('upstream-backed state cannot move to another root')
  }

  async hasStateRoot(root: Uint8Array): Promise<boolean> {
    return this.root !== undefined && equalsBytes(root, this.root)
  }

  clearCaches(): void {
    // the snapshot's values are immutable facts about one block: nothing to invalidate
  }

  /** An independent copy of the state as it stands (writes of open checkpoints included), over the same snapshot. */
  shallowCopy(): UpstreamStateManager {
    const o = this.overlay
    const overlay: Overlay = {
      accounts: new Map(o.accounts),
      code: new Map(o.code),
      cleared: new Map(o.cleared),
      storage: new Map([...o.storage].map(([k, slots]) => [k, new Map(slots)])),
    }
    return new UpstreamStateManager(this.snapshot, this.common, { root: this.root, overlay })
  }

  /**
   * The accounts written here and the storage slots written under each (keys as keyOf gives them): with
   * the upstream's, the whole of what this state changed (the state tests rebuild a post-state root so).
   */
  written(): Map<string, string[]> {
    const o = this.overlay
    const out = new Map<string, string[]>()
    for (const key of [...o.accounts.keys(), ...o.code.keys(), ...o.cleared.keys()]) out.set(key, [])
    for (const [key, slots] of o.storage) out.set(key, [...slots.keys()])
    return out
  }

  /** The upstream's storage root where learned and not cleared here; else the empty root. */
  private storageRootOf(address: Uint8Array, key: string): Uint8Array {
    if (this.overlay.cleared.has(key)) return KECCAK256_RLP
    return this.snapshot.knownStorageRoot(address) ?? KECCAK256_RLP
  }

  private set<K, V>(map: Map<K, V>, key: K, value: V): void {
    const frame = this.journal.at(-1)
    if (frame) {
      const had = map.has(key)
      const previous = map.get(key)
      frame.push(had ? () => map.set(key, previous as V) : () => map.delete(key))
    }
    map.set(key, value)
  }
}
