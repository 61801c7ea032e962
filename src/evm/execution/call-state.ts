/**
 * The state an eth_call runs on: reads fall through to a shared read view of a committed root (whose
 * caches stay warm across calls), writes land in maps of this call's own that are dropped when it ends.
 * A MerkleStateManager in a reverted checkpoint would do the same but throws its cache fills away with the
 * revert, so every call walked the trie cold; here nothing a call does reaches the view.
 * Checkpoints are an undo log, so a nested call's revert costs what it wrote, not a copy of the state.
 */
import type { StateManagerInterface } from '@ethereumjs/common'
import { Account, type Address, KECCAK256_NULL } from '@ethereumjs/util'
import { byteKey } from '../../domain/map-keys.js'
import { keccak256 } from '../crypto.js'

/** What a call reads from: the chain's read view of a root (state-cache.ts), whose accounts are shared. */
export interface StateSource {
  getAccount(address: Address): Promise<Account | undefined>
  getCode(address: Address): Promise<Uint8Array>
  getStorage(address: Address, key: Uint8Array): Promise<Uint8Array>
  /**
   * The same reads, without a promise when the source has the answer at hand or reads it synchronously (an
   * in-memory trie): the interpreter (src/evm/interpreter/host.ts) then goes on without an await. null: no account.
   */
  readAccount?(address: Address): Account | null | Promise<Account | null>
  readCode?(address: Address): Uint8Array | Promise<Uint8Array>
  readStorage?(address: Address, key: Uint8Array): Uint8Array | Promise<Uint8Array>
}

const EMPTY = new Uint8Array(0)
const NO_ACCOUNT = Symbol('deleted')
const detachedRead = (): never => {
  throw new Error('a call state read after its call ended')
}
const DETACHED: StateSource = { getAccount: detachedRead, getCode: detachedRead, getStorage: detachedRead }

type Undo = { map: Map<string, unknown>; key: string; had: boolean; prev: unknown }

function copy(account: Account): Account {
  return new Account(account.nonce, account.balance, account.storageRoot, account.codeHash)
}

export class CallState implements Pick<StateManagerInterface, keyof StateManagerInterface> {
  private base!: StateSource
  private readonly accounts = new Map<string, Account | typeof NO_ACCOUNT>()
  private readonly code = new Map<string, Uint8Array>()
  /**
   * Keyed by byteKey: address + slot, and the address alone → NO_ACCOUNT for an account whose storage was
   * cleared (an address is 20 characters, so the two never meet).
   */
  private readonly storage = new Map<string, Uint8Array | typeof NO_ACCOUNT>()
  private readonly log: Undo[] = []
  private readonly marks: number[] = []

  readonly originalStorageCache = {
    // calls start from the committed state (overrides take the other path), so "original" is the view's value
    get: (address: Address, key: Uint8Array) => this.base.getStorage(address, key),
    clear: () => {},
  }

  /**
   * Lets go of the base after a call: an idle EVM must not keep a read view alive (a follower's holds the
   * upstream reads of its whole block).
   */
  detach(): void {
    this.base = DETACHED
  }

  /** Points the state at a new base and forgets everything the last call wrote. */
  reset(base: StateSource): void {
    this.base = base
    this.accounts.clear()
    this.code.clear()
    this.storage.clear()
    this.log.length = 0
    this.marks.length = 0
  }

  private set(map: Map<string, unknown>, key: string, value: unknown): void {
    if (this.marks.length > 0) this.log.push({ map, key, had: map.has(key), prev: map.get(key) })
    map.set(key, value)
  }

  async getAccount(address: Address): Promise<Account | undefined> {
    const own = this.accounts.get(byteKey(address.bytes))
    if (own === NO_ACCOUNT) return undefined
    if (own) return copy(own)
    const shared = await this.base.getAccount(address)
    return shared && copy(shared)
  }

  async putAccount(address: Address, account?: Account): Promise<void> {
    this.set(this.accounts, byteKey(address.bytes), account ? copy(account) : NO_ACCOUNT)
  }

  async deleteAccount(address: Address): Promise<void> {
    const key = byteKey(address.bytes)
    this.set(this.accounts, key, NO_ACCOUNT)
    this.set(this.code, key, EMPTY)
    this.set(this.storage, key, NO_ACCOUNT)
  }

  async modifyAccountFields(
    address: Address,
    fields: Partial<Pick<Account, 'nonce' | 'balance' | 'storageRoot' | 'codeHash'>>,
  ): Promise<void> {
    const account = (await this.getAccount(address)) ?? new Account()
    account.nonce = fields.nonce ?? account.nonce
    account.balance = fields.balance ?? account.balance
    account.storageRoot = fields.storageRoot ?? account.storageRoot
    account.codeHash = fields.codeHash ?? account.codeHash
    await this.putAccount(address, account)
  }

  async getCode(address: Address): Promise<Uint8Array> {
    return this.code.get(byteKey(address.bytes)) ?? this.base.getCode(address)
  }

  async getCodeSize(address: Address): Promise<number> {
    return (await this.getCode(address)).length
  }

  async putCode(address: Address, value: Uint8Array): Promise<void> {
    this.set(this.code, byteKey(address.bytes), value)
    await this.modifyAccountFields(address, { codeHash: value.length === 0 ? KECCAK256_NULL : keccak256(value) })
  }

  async getStorage(address: Address, key: Uint8Array): Promise<Uint8Array> {
    const account = byteKey(address.bytes)
    const own = this.storage.get(account + byteKey(key))
    if (own !== undefined) return own === NO_ACCOUNT ? EMPTY : own
    if (this.storage.get(account) === NO_ACCOUNT) return EMPTY
    return this.base.getStorage(address, key)
  }

  async putStorage(address: Address, key: Uint8Array, value: Uint8Array): Promise<void> {
    this.set(this.storage, byteKey(address.bytes) + byteKey(key), value)
  }

  async clearStorage(address: Address): Promise<void> {
    const account = byteKey(address.bytes)
    for (const key of [...this.storage.keys()])
      if (key.length > account.length && key.startsWith(account)) this.set(this.storage, key, NO_ACCOUNT)
    this.set(this.storage, account, NO_ACCOUNT)
  }

  async checkpoint(): Promise<void> {
    this.marks.push(this.log.length)
  }

  async commit(): Promise<void> {
    this.marks.pop()
    // the outermost commit keeps the writes; nothing can revert them any more
    if (this.marks.length === 0) this.log.length = 0
  }

  async revert(): Promise<void> {
    const mark = this.marks.pop() ?? 0
    for (let i = this.log.length - 1; i >= mark; i--) {
      const { map, key, had, prev } = this.log[i]
      if (had) map.set(key, prev)
      else map.delete(key)
    }
    this.log.length = mark
  }

  async getStateRoot(): Promise<Uint8Array> {
    throw new Error('a call state has no state root')
  }

  async setStateRoot(): Promise<void> {
    throw new Error('a call state has no state root')
  }

  async hasStateRoot(): Promise<boolean> {
    return false
  }

  clearCaches(): void {}

  shallowCopy(): StateManagerInterface {
    throw new Error('a call state is not copied')
  }
}
