/**
 * What every frame of one interpreted call shares: the state it reads (the call's read view, through an
 * entry per account touched, so a second read of an account, its code or a slot is synchronous), what it
 * writes (storage and transient storage in the journal's words, never in the view: a call restarted on the
 * reference path finds the state untouched), EIP-2929's warm flags, the logs, the refund counter, and the
 * journal that undoes a failed frame's writes and warmings.
 *
 * Accounts are keyed by byteKey of their address and slots by wordKey, both made from the stack's limbs
 * (domain/map-keys.ts): a slot that is a small number is a number key, no string at all.
 */
import type { Block } from '@ethereumjs/block'
import type { EVM, PrecompileFunc } from '@ethereumjs/evm'
import { type Account, Address } from '@ethereumjs/util'
import { addressKey, byteKey, wordKey } from '../../domain/map-keys.js'
import type { Budget } from '../execution/budget.js'
import type { StateSource } from '../execution/call-state.js'
import { Journal, Slot } from './journal.js'
import * as w from './word.js'

/** A log as @ethereumjs's results carry it: address, topics, data. */
export type Log = [Uint8Array, Uint8Array[], Uint8Array]

/** The interpreter met something it does not run: the whole call restarts on the reference path. */
export class Fallback extends Error {
  constructor(readonly reason: string) {
    super(`interpreter fallback: ${reason}`)
  }
}

/** An account the call touched: its warm flag, what was read of it, and its slots. */
export class Touched {
  warm: boolean
  /** undefined until read; null when there is none. */
  account: Account | null | undefined = undefined
  code: Uint8Array | undefined = undefined
  readonly slots = new Map<number | string, Slot>()
  readonly transient = new Map<number | string, Slot>()
  readonly address: Address
  readonly precompile: PrecompileFunc | undefined

  constructor(
    evm: EVM,
    /** The 20 address bytes. */
    readonly bytes: Uint8Array,
  ) {
    this.address = new Address(bytes)
    this.precompile = evm.getPrecompile(this.address)
    // EIP-2929: the precompiles are warm from the start
    this.warm = this.precompile !== undefined
  }
}

const scratch = new Uint8Array(32)

export class Host {
  readonly journal = new Journal()
  readonly logs: Log[] = []
  refund = 0
  private readonly touched = new Map<string, Touched>()

  constructor(
    readonly evm: EVM,
    readonly source: StateSource,
    readonly block: Block,
    readonly origin: Uint8Array,
    readonly budget: Budget | undefined,
  ) {}

  /** The account of the address bytes, warm when `warm` (a transaction's sender, recipient, coinbase). */
  account(bytes: Uint8Array, warm = false): Touched {
    const key = byteKey(bytes)
    let a = this.touched.get(key)
    if (a === undefined) {
      a = new Touched(this.evm, bytes)
      this.touched.set(key, a)
    }
    if (warm) a.warm = true
    return a
  }

  /** The account of the address in the word at `at` of `s`. */
  accountAt(s: Uint32Array, at: number): Touched {
    const a = this.touched.get(addressKey(s, at))
    if (a !== undefined) return a
    w.toBytes32(s, at, scratch, 0)
    return this.account(scratch.slice(12))
  }

  /** The slot (storage, or transient when `transient`) of `a` named by the word at `at` of `s`. */
  slot(a: Touched, s: Uint32Array, at: number, transient: boolean): Slot {
    const slots = transient ? a.transient : a.slots
    const key = wordKey(s, at)
    let slot = slots.get(key)
    if (slot === undefined) {
      slot = new Slot()
      slots.set(key, slot)
    }
    return slot
  }

  /** The account's state, read once per call. */
  read(a: Touched): Account | null | Promise<Account | null> {
    if (a.account !== undefined) return a.account
    return this.source.getAccount(a.address).then((account) => {
      a.account = account ?? null
      return a.account
    })
  }

  code(a: Touched): Uint8Array | Promise<Uint8Array> {
    if (a.code !== undefined) return a.code
    return this.source.getCode(a.address).then((code) => {
      a.code = code
      return code
    })
  }

  /**
   * The offset in the journal's words of the slot's committed value; `s` and `at` hold the slot's number
   * (read while the frame waits, so they stay).
   */
  original(a: Touched, slot: Slot, s: Uint32Array, at: number): number | Promise<number> {
    if (slot.original >= 0) return slot.original
    const key = new Uint8Array(32)
    w.toBytes32(s, at, key, 0)
    return this.source.getStorage(a.address, key).then((value) => {
      slot.original = this.journal.fromBytes(value)
      return slot.original
    })
  }

  /** Gives the journal's words back (after the call's result is read). */
  release(): void {
    this.journal.release()
  }
}
