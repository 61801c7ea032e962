/**
 * The opcodes that read or write state: SLOAD/SSTORE with EIP-2929's access costs and EIP-2200/3529's
 * SSTORE pricing and refunds, TLOAD/TSTORE, and the account reads (BALANCE, SELFBALANCE, EXTCODE*,
 * BLOCKHASH). A read the host has cached runs synchronously; a miss returns the read's promise, which the
 * loop awaits. BLOCKHASH, SELFBALANCE, TLOAD and TSTORE have static gas (the loop's); the rest charge their own.
 */
import { KECCAK256_NULL } from '@ethereumjs/util'
import type { Account } from '@ethereumjs/util'
import type { Frame } from './frame.js'
import { Fallback } from './host.js'
import { COLD_ACCOUNT, WARM } from './shapes.js'
import * as w from './word.js'

type Handler = (f: Frame) => void | Promise<void>
const COLD_SLOAD = 2100
const SSTORE_SENTRY = 2300
const SSTORE_SET = 20000
const SSTORE_RESET = 5000
const CLEAR_REFUND = 4800
const STATIC_STATE_CHANGE = 'static state change'
const OUT_OF_GAS = 'out of gas'
const EMPTY = new Uint8Array(0)

const top = (f: Frame) => (f.sp - 1) * 8

/** Runs `then` on a value now, or after its read. */
function after<T>(value: T | Promise<T>, then: (v: T) => void): void | Promise<void> {
  return value instanceof Promise ? value.then(then) : then(value)
}

function isZeroBytes(v: Uint8Array): boolean {
  for (let i = 0; i < v.length; i++) if (v[i] !== 0) return false
  return true
}

/** Numeric equality of two big-endian values of any length. */
function same(a: Uint8Array, b: Uint8Array): boolean {
  let i = 0
  let j = 0
  while (i < a.length && a[i] === 0) i++
  while (j < b.length && b[j] === 0) j++
  if (a.length - i !== b.length - j) return false
  for (; i < a.length; i++, j++) if (a[i] !== b[j]) return false
  return true
}

function sload(f: Frame): void | Promise<void> {
  const t = top(f)
  const slot = w.wordHex(f.stack, t)
  if (!f.use(f.host.warmSlot(f.address + slot) ? COLD_SLOAD : WARM)) return
  return after(f.host.current(f.address, slot), (v) => w.fromBytes(f.stack, t, v, 0, v.length))
}

function sstore(f: Frame): void | Promise<void> {
  if (f.isStatic) return f.fail(STATIC_STATE_CHANGE)
  if (f.gas <= SSTORE_SENTRY) return f.fail(OUT_OF_GAS)
  const t = top(f)
  const slot = w.wordHex(f.stack, t)
  const value = new Uint8Array(32)
  w.toBytes32(f.stack, t - 8, value, 0)
  f.sp -= 2
  const { host } = f
  return after(host.committed(f.address, slot), (original) => {
    const key = f.address + slot
    const current = host.storage.get(key) ?? original
    let cost = host.warmSlot(key) ? COLD_SLOAD : 0
    if (same(current, value)) cost += WARM
    else if (same(original, current)) {
      cost += isZeroBytes(original) ? SSTORE_SET : SSTORE_RESET - COLD_SLOAD
      if (!isZeroBytes(original) && isZeroBytes(value)) host.refund += CLEAR_REFUND
    } else {
      cost += WARM
      if (!isZeroBytes(original)) {
        if (isZeroBytes(current)) host.refund -= CLEAR_REFUND
        else if (isZeroBytes(value)) host.refund += CLEAR_REFUND
      }
      if (same(original, value))
        host.refund += isZeroBytes(original) ? SSTORE_SET - WARM : SSTORE_RESET - COLD_SLOAD - WARM
    }
    if (!f.use(cost)) return
    host.set(host.storage, key, value)
  })
}

/** An account read with EIP-2929's access cost; `then` gets the address key and the account. */
function accountOp(then: (f: Frame, t: number, key: string, account: Account | null) => void): Handler {
  return (f) => {
    const t = top(f)
    const key = w.addressHex(f.stack, t)
    if (!f.use(f.host.warmAddress(key) ? COLD_ACCOUNT : WARM)) return
    return after(f.host.account(key), (account) => then(f, t, key, account))
  }
}

/** The code of `key` for EXTCODE*: EOF code is counted as EOF's marker, which the interpreter leaves alone. */
function codeOf(f: Frame, key: string): Uint8Array | Promise<Uint8Array> {
  return after2(f.host.code(key), (code) => {
    if (code.length >= 2 && code[0] === 0xef && code[1] === 0x00) throw new Fallback('EOF code read by EXTCODE*')
    return code
  })
}

function after2<T, U>(value: T | Promise<T>, then: (v: T) => U): U | Promise<U> {
  return value instanceof Promise ? value.then(then) : then(value)
}

const balance = (f: Frame, t: number, account: Account | null) => w.fromBigInt(f.stack, t, account?.balance ?? 0n)

export const stateOps: [number, Handler][] = [
  [0x31, accountOp((f, t, _key, account) => balance(f, t, account))],
  [0x3b, accountOp((f, t, key) => after(codeOf(f, key), (code) => w.setSmall(f.stack, t, code.length)))],
  [
    0x3c,
    (f) => {
      const t = top(f)
      const key = w.addressHex(f.stack, t)
      const to = w.saturated(f.stack, t - 8)
      const from = w.saturated(f.stack, t - 16)
      const length = w.saturated(f.stack, t - 24)
      if (!f.expand(to, length)) return
      const cost = (f.host.warmAddress(key) ? COLD_ACCOUNT : WARM) + 3 * Math.ceil(length / 32)
      if (!f.use(cost)) return
      f.sp -= 4
      return after(codeOf(f, key), (code) => {
        if (length === 0) return
        const n = from >= code.length ? 0 : Math.min(length, code.length - from)
        if (n > 0) f.mem.set(code.subarray(from, from + n), to)
        if (n < length) f.mem.fill(0, to + n, to + length)
      })
    },
  ],
  [
    0x3f,
    accountOp((f, t, key, account) =>
      after(codeOf(f, key), () => {
        if (!account || account.isEmpty()) w.setSmall(f.stack, t, 0)
        else w.fromBytes32(f.stack, t, account.codeHash ?? KECCAK256_NULL, 0)
      }),
    ),
  ],
  [
    0x40,
    (f) => {
      const t = top(f)
      const wanted = w.toBigInt(f.stack, t)
      const number = f.host.block.header.number
      const diff = number - wanted
      if (diff > 256n || diff <= 0n) return w.setSmall(f.stack, t, 0)
      return f.host.evm.blockchain.getBlock(Number(wanted)).then((block) => w.fromBytes32(f.stack, t, block.hash(), 0))
    },
  ],
  [
    0x47,
    (f) => {
      const t = f.sp * 8
      f.sp++
      return after(f.host.account(f.address), (account) => balance(f, t, account))
    },
  ],
  [0x54, sload],
  [0x55, sstore],
  [
    0x5c,
    (f) => {
      const t = top(f)
      const v = f.host.transient.get(f.address + w.wordHex(f.stack, t)) ?? EMPTY
      w.fromBytes(f.stack, t, v, 0, v.length)
    },
  ],
  [
    0x5d,
    (f) => {
      if (f.isStatic) return f.fail(STATIC_STATE_CHANGE)
      const t = top(f)
      const value = new Uint8Array(32)
      w.toBytes32(f.stack, t - 8, value, 0)
      f.host.set(f.host.transient, f.address + w.wordHex(f.stack, t), value)
      f.sp -= 2
    },
  ],
]
