/**
 * The opcodes that read or write state: SLOAD/SSTORE with EIP-2929's access costs and EIP-2200/3529's
 * SSTORE pricing and refunds, TLOAD/TSTORE, and the account reads (BALANCE, SELFBALANCE, EXTCODE*,
 * BLOCKHASH). A read the host has cached runs synchronously; a miss returns the read's promise, which the
 * loop awaits. BLOCKHASH, SELFBALANCE, TLOAD and TSTORE have static gas (the loop's); the rest charge their own.
 */
import { KECCAK256_NULL } from '@ethereumjs/util'
import type { Account } from '@ethereumjs/util'
import { wordKey } from '../../domain/map-keys.js'
import type { Frame } from './frame.js'
import { Fallback, type Touched } from './host.js'
import type { Slot } from './journal.js'
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

const top = (f: Frame) => (f.sp - 1) * 8

/** Runs `then` on a value now, or after its read. */
function after<T, U>(value: T | Promise<T>, then: (v: T) => U): U | Promise<U> {
  return value instanceof Promise ? value.then(then) : then(value)
}

/** A tracer's report of a state opcode reached (frame-tracer.ts): the word on top of the stack. */
function traced(f: Frame, what: 'account' | 'slot'): void {
  const { tracer } = f.host
  if (tracer === undefined) return
  const word = new Uint8Array(32)
  w.toBytes32(f.stack, top(f), word, 0)
  if (what === 'slot') tracer.slot?.(f.addressBytes, word)
  else tracer.account?.(word)
}

function sload(f: Frame): void | Promise<void> {
  traced(f, 'slot')
  const { host, stack: s } = f
  const t = top(f)
  const slot = host.slot(f.account, s, t, false)
  if (!f.use(host.journal.warm(slot) ? COLD_SLOAD : WARM)) return
  if (slot.current >= 0) return host.journal.load(slot.current, s, t)
  const original = host.original(f.account, slot, s, t)
  if (typeof original === 'number') return host.journal.load(original, s, t)
  return original.then((v) => host.journal.load(v, s, t))
}

function sstore(f: Frame): void | Promise<void> {
  traced(f, 'slot')
  if (f.isStatic) return f.fail(STATIC_STATE_CHANGE)
  if (f.gas <= SSTORE_SENTRY) return f.fail(OUT_OF_GAS)
  const { host, stack: s } = f
  const t = top(f)
  const slot = host.slot(f.account, s, t, false)
  f.sp -= 2
  // the new value stays at t - 8 while the frame waits for the read
  return after(host.original(f.account, slot, s, t), (original) => store(f, slot, original, s, t - 8))
}

/** EIP-2200 and EIP-3529's SSTORE, its committed value read: the word at `v` of `s` becomes the slot's. */
function store(f: Frame, slot: Slot, original: number, s: Uint32Array, v: number): void {
  const { host } = f
  const j = host.journal
  const current = slot.current >= 0 ? slot.current : original
  let cost = j.warm(slot) ? COLD_SLOAD : 0
  const valueZero = w.isZero(s, v)
  if (j.equals(current, s, v)) cost += WARM
  else if (j.same(original, current)) {
    const originalZero = j.isZero(original)
    cost += originalZero ? SSTORE_SET : SSTORE_RESET - COLD_SLOAD
    if (!originalZero && valueZero) host.refund += CLEAR_REFUND
  } else {
    cost += WARM
    const originalZero = j.isZero(original)
    if (!originalZero) {
      if (j.isZero(current)) host.refund -= CLEAR_REFUND
      else if (valueZero) host.refund += CLEAR_REFUND
    }
    if (j.equals(original, s, v)) host.refund += originalZero ? SSTORE_SET - WARM : SSTORE_RESET - COLD_SLOAD - WARM
  }
  if (!f.use(cost)) return
  j.write(slot, s, v)
}

/** An account read with EIP-2929's access cost; `then` gets the account's entry and state. */
function accountOp(then: (f: Frame, t: number, a: Touched, account: Account | null) => void): Handler {
  return (f) => {
    traced(f, 'account')
    const t = top(f)
    const a = f.host.accountAt(f.stack, t)
    if (!f.use(f.host.journal.warm(a) ? COLD_ACCOUNT : WARM)) return
    return after(f.host.read(a), (account) => then(f, t, a, account))
  }
}

/** The code of `a` for EXTCODE*: EOF code is counted as EOF's marker, which the interpreter leaves alone. */
function codeOf(f: Frame, a: Touched): Uint8Array | Promise<Uint8Array> {
  return after(f.host.code(a), (code) => {
    if (code.length >= 2 && code[0] === 0xef && code[1] === 0x00) throw new Fallback('EOF code read by EXTCODE*')
    return code
  })
}

const balance = (f: Frame, t: number, account: Account | null) => w.fromBigInt(f.stack, t, account?.balance ?? 0n)

export const stateOps: [number, Handler][] = [
  [0x31, accountOp((f, t, _a, account) => balance(f, t, account))],
  [0x3b, accountOp((f, t, a) => after(codeOf(f, a), (code) => w.setSmall(f.stack, t, code.length)))],
  [
    0x3c,
    (f) => {
      traced(f, 'account')
      const t = top(f)
      const a = f.host.accountAt(f.stack, t)
      const to = w.saturated(f.stack, t - 8)
      const from = w.saturated(f.stack, t - 16)
      const length = w.saturated(f.stack, t - 24)
      if (!f.expand(to, length)) return
      const cost = (f.host.journal.warm(a) ? COLD_ACCOUNT : WARM) + 3 * Math.ceil(length / 32)
      if (!f.use(cost)) return
      f.sp -= 4
      return after(codeOf(f, a), (code) => {
        if (length === 0) return
        const n = from >= code.length ? 0 : Math.min(length, code.length - from)
        if (n > 0) f.mem.set(code.subarray(from, from + n), to)
        if (n < length) f.mem.fill(0, to + n, to + length)
      })
    },
  ],
  [
    0x3f,
    accountOp((f, t, a, account) =>
      after(codeOf(f, a), () => {
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
      return after(f.host.read(f.account), (account) => balance(f, t, account))
    },
  ],
  [0x54, sload],
  [0x55, sstore],
  [
    0x5c,
    (f) => {
      const t = top(f)
      const slot = f.account.transient.get(wordKey(f.stack, t))
      if (slot === undefined || slot.current < 0) w.setSmall(f.stack, t, 0)
      else f.host.journal.load(slot.current, f.stack, t)
    },
  ],
  [
    0x5d,
    (f) => {
      if (f.isStatic) return f.fail(STATIC_STATE_CHANGE)
      const t = top(f)
      f.host.journal.write(f.host.slot(f.account, f.stack, t, true), f.stack, t - 8)
      f.sp -= 2
    },
  ],
]
