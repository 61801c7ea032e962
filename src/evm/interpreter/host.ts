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
import { type Account, Address, hexToBytes } from '@ethereumjs/util'
import { addressKey, byteKey, wordKey } from '../../domain/map-keys.js'
import type { Budget } from '../execution/budget.js'
import type { StateSource } from '../execution/call-state.js'
import type { FrameTracer } from './frame-tracer.js'
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
  /** undefined until read; null when there is none. */
  account: Account | null | undefined = undefined
  code: Uint8Array | undefined = undefined
  /** Touched as EIP-161 counts it, in a frame not undone (journal.ts's touch). */
  eip161 = false
  private made: Address | undefined = undefined
  // made at the first use: most accounts a call touches (its sender, the coinbase) hold no slot of it
  private storageSlots: Map<number | string, Slot> | undefined = undefined
  private transientSlots: Map<number | string, Slot> | undefined = undefined

  constructor(
    /** The 20 address bytes. */
    readonly bytes: Uint8Array,
    readonly precompile: PrecompileFunc | undefined,
    /** EIP-2929: the precompiles are warm from the start. */
    public warm = precompile !== undefined,
  ) {}

  get slots(): Map<number | string, Slot> {
    if (this.storageSlots === undefined) this.storageSlots = new Map()
    return this.storageSlots
  }

  /** The storage slots the call read or wrote, by wordKey of their numbers (undefined: none). */
  get storage(): ReadonlyMap<number | string, Slot> | undefined {
    return this.storageSlots
  }

  get transient(): Map<number | string, Slot> {
    if (this.transientSlots === undefined) this.transientSlots = new Map()
    return this.transientSlots
  }

  /** The address as the state source takes it (made at the first read: most accounts a call touches are not read). */
  get address(): Address {
    if (this.made === undefined) this.made = new Address(this.bytes)
    return this.made
  }
}

/** Each precompile set's functions by byteKey of their addresses (the EVM's own map is keyed by hex). */
const keyedSets = new WeakMap<Map<string, PrecompileFunc>, Map<string, PrecompileFunc>>()

/** The precompile at the address bytes, without the hex EVM.getPrecompile makes of them. */
export function precompileAt(evm: EVM, bytes: Uint8Array): PrecompileFunc | undefined {
  return precompilesOf(evm).get(byteKey(bytes))
}

function precompilesOf(evm: EVM): Map<string, PrecompileFunc> {
  const set = evm.precompiles
  let keyed = keyedSets.get(set)
  if (keyed === undefined) {
    keyed = new Map()
    for (const [hex, fn] of set) keyed.set(byteKey(hexToBytes(`0x${hex}`)), fn)
    keyedSets.set(set, keyed)
  }
  return keyed
}

const scratch = new Uint8Array(32)

export class Host {
  readonly journal = new Journal()
  readonly logs: Log[] = []
  refund = 0
  /** GASPRICE: what the call's sender pays per gas (0 for a call without fee fields). */
  gasPrice = 0n
  /** A traced transaction's tracer of child frames and logs (frame-tracer.ts); none on calls. */
  tracer: FrameTracer | undefined = undefined
  private readonly touched = new Map<string, Touched>()
  private readonly precompiles: Map<string, PrecompileFunc>

  constructor(
    readonly evm: EVM,
    readonly source: StateSource,
    readonly block: Block,
    readonly origin: Uint8Array,
    readonly budget: Budget | undefined,
  ) {
    this.precompiles = precompilesOf(evm)
  }

  /** The account of the address bytes, warm when `warm` (a transaction's sender, recipient, coinbase). */
  account(bytes: Uint8Array, warm = false): Touched {
    const key = byteKey(bytes)
    let a = this.touched.get(key)
    if (a === undefined) {
      a = new Touched(bytes, this.precompiles.get(key))
      this.touched.set(key, a)
    }
    if (warm) a.warm = true
    return a
  }

  /** Every account the call touched so far. */
  accounts(): IterableIterator<Touched> {
    return this.touched.values()
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
    const { source } = this
    const read = source.readAccount ? source.readAccount(a.address) : source.getAccount(a.address)
    if (!(read instanceof Promise)) return (a.account = read ?? null)
    return read.then((account) => (a.account = account ?? null))
  }

  code(a: Touched): Uint8Array | Promise<Uint8Array> {
    if (a.code !== undefined) return a.code
    const { source } = this
    const read = source.readCode ? source.readCode(a.address) : source.getCode(a.address)
    if (!(read instanceof Promise)) return (a.code = read)
    return read.then((code) => (a.code = code))
  }

  /**
   * The offset in the journal's words of the slot's committed value; `s` and `at` hold the slot's number
   * (read while the frame waits, so they stay).
   */
  original(a: Touched, slot: Slot, s: Uint32Array, at: number): number | Promise<number> {
    if (slot.original >= 0) return slot.original
    const key = new Uint8Array(32)
    w.toBytes32(s, at, key, 0)
    const { source } = this
    const read = source.readStorage ? source.readStorage(a.address, key) : source.getStorage(a.address, key)
    if (!(read instanceof Promise)) return (slot.original = this.journal.fromBytes(read))
    return read.then((value) => (slot.original = this.journal.fromBytes(value)))
  }

  /** Gives the journal's words back (after the call's result is read). */
  release(): void {
    this.journal.release()
  }
}
