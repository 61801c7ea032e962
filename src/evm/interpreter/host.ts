/**
 * What every frame of one interpreted call shares: the state it reads (the call's read view, through caches
 * of its own so a second read of an account, code or slot is synchronous), what it writes (storage and
 * transient storage in maps of its own, never in the view: a call restarted on the reference path finds the
 * state untouched), EIP-2929's warm sets, the logs, the refund counter, and a journal that undoes a failed
 * frame's writes and warmings.
 */
import type { Block } from '@ethereumjs/block'
import type { EVM } from '@ethereumjs/evm'
import { type Account, Address, hexToBytes } from '@ethereumjs/util'
import type { StateSource } from '../execution/call-state.js'
import type { Budget } from '../execution/budget.js'

/** A log as @ethereumjs's results carry it: address, topics, data. */
export type Log = [Uint8Array, Uint8Array[], Uint8Array]

/** The interpreter met something it does not run: the whole call restarts on the reference path. */
export class Fallback extends Error {
  constructor(readonly reason: string) {
    super(`interpreter fallback: ${reason}`)
  }
}

type Undo = { map: Map<string, unknown>; key: string; had: boolean; prev: unknown }

export class Host {
  readonly warmAddresses = new Map<string, true>()
  readonly warmSlots = new Map<string, true>()
  /** Slot values this call wrote, by `${address}${slot}` (hex, unprefixed). */
  readonly storage = new Map<string, Uint8Array>()
  /** Committed slot values read (EIP-2200's originals), by the same key. */
  readonly original = new Map<string, Uint8Array>()
  readonly transient = new Map<string, Uint8Array>()
  readonly logs: Log[] = []
  refund = 0
  steps = 0
  private readonly undo: Undo[] = []
  private readonly accounts = new Map<string, Account | null>()
  private readonly codes = new Map<string, Uint8Array>()

  constructor(
    readonly evm: EVM,
    readonly source: StateSource,
    readonly block: Block,
    readonly origin: Uint8Array,
    readonly budget: Budget | undefined,
  ) {}

  /** A journal mark: what `revert` returns to. */
  mark(): number {
    return this.undo.length
  }

  /** Undoes every write and warming since `mark`. */
  revert(mark: number): void {
    for (let i = this.undo.length - 1; i >= mark; i--) {
      const { map, key, had, prev } = this.undo[i]!
      if (had) map.set(key, prev)
      else map.delete(key)
    }
    this.undo.length = mark
  }

  set<T>(map: Map<string, T>, key: string, value: T): void {
    this.undo.push({ map: map as Map<string, unknown>, key, had: map.has(key), prev: map.get(key) })
    map.set(key, value)
  }

  /** Warms an address; whether it was cold. */
  warmAddress(key: string): boolean {
    if (this.warmAddresses.has(key)) return false
    this.set(this.warmAddresses, key, true)
    return true
  }

  /** Warms a slot; whether it was cold. */
  warmSlot(key: string): boolean {
    if (this.warmSlots.has(key)) return false
    this.set(this.warmSlots, key, true)
    return true
  }

  /** The account at `key` (unprefixed hex), cached for the call; null when there is none. */
  account(key: string): Account | null | Promise<Account | null> {
    const known = this.accounts.get(key)
    if (known !== undefined) return known
    return this.source.getAccount(addressOf(key)).then((a) => {
      this.accounts.set(key, a ?? null)
      return a ?? null
    })
  }

  code(key: string): Uint8Array | Promise<Uint8Array> {
    const known = this.codes.get(key)
    if (known !== undefined) return known
    return this.source.getCode(addressOf(key)).then((c) => {
      this.codes.set(key, c)
      return c
    })
  }

  /** The committed value of a slot (minimal big-endian bytes, empty for zero). */
  committed(address: string, slot: string): Uint8Array | Promise<Uint8Array> {
    const key = address + slot
    const known = this.original.get(key)
    if (known !== undefined) return known
    return this.source.getStorage(addressOf(address), hexToBytes(`0x${slot}`)).then((v) => {
      this.original.set(key, v)
      return v
    })
  }

  /** The slot's value now: this call's write, else the committed value. */
  current(address: string, slot: string): Uint8Array | Promise<Uint8Array> {
    return this.storage.get(address + slot) ?? this.committed(address, slot)
  }
}

function addressOf(key: string): Address {
  return new Address(hexToBytes(`0x${key}`))
}
