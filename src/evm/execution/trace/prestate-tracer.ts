/**
 * geth's prestateTracer: the accounts (and storage slots) a transaction touched, as they were before it;
 * with diffMode, {pre, post} holding only what changed. Touched addresses and slots are collected from the
 * EVM's events (or the interpreter's reports: interpreter/frame-tracer.ts), and read from the state roots
 * before and after the transaction.
 */
import type { EVM, ExecResult, InterpreterStep, Message } from '@ethereumjs/evm'
import type { StateManagerInterface } from '@ethereumjs/common'
import { Address, bigIntToBytes, bigIntToHex, bytesToBigInt, bytesToHex, setLengthLeft } from '@ethereumjs/util'
import { type FrameTracer, traceFrames, untraceFrames } from '../../interpreter/frame-tracer.js'

/** Where the state before and after is read: two state roots of a block's replay, or two copies of a call's state. */
type StateReader = Pick<StateManagerInterface, 'getAccount' | 'getCode' | 'getStorage'>

type Account = { balance?: string; nonce?: number; code?: string; storage?: Record<string, string> }

export function attachPrestateTracer(evm: EVM, sender: Address, coinbase: Address) {
  const touched = new Map<string, Set<string>>([
    [sender.toString(), new Set()],
    [coinbase.toString(), new Set()],
  ])
  const touchIn = (into: Map<string, Set<string>>, address: string) =>
    into.get(address) ?? into.set(address, new Set()).get(address)!
  const touch = (address: string) => touchIn(touched, address)
  const slotKey = (slot: bigint) => bytesToHex(setLengthLeft(bigIntToBytes(slot), 32))
  // the step's word as it names an account: all of it in hex, at least 40 digits
  const accountKey = (word: bigint) => `0x${word.toString(16).padStart(40, '0')}`
  const onStep = (step: InterpreterStep, resolve?: () => void) => {
    const op = step.opcode.name
    const top = step.stack[step.stack.length - 1]
    // an opcode on an empty stack fails before it reads anything (its step comes all the same)
    if (top === undefined) return resolve?.()
    if (op === 'SLOAD' || op === 'SSTORE') touch(step.address.toString()).add(slotKey(top))
    if (['BALANCE', 'EXTCODESIZE', 'EXTCODECOPY', 'EXTCODEHASH', 'SELFDESTRUCT'].includes(op)) touch(accountKey(top))
    resolve?.()
  }
  const onBeforeMessage = (message: Message, resolve?: () => void) => {
    touch(message.caller.toString())
    if (message.to) touch(message.to.toString())
    resolve?.()
  }
  // on an EVM whose outermost frames run on the interpreter, what the interpreter reports is kept apart until
  // the frame ends and is taken: one where a frame failed goes to @ethereumjs (an opcode that failed may have
  // been reached by @ethereumjs's steps and not by the interpreter's, whose basic blocks check gas and stack at entry)
  let interpreted = new Map<string, Set<string>>()
  let failed = false
  const frames: FrameTracer = {
    enter(_op, from, to) {
      touchIn(interpreted, bytesToHex(from))
      touchIn(interpreted, bytesToHex(to))
    },
    exit(_gasUsed, _output, error) {
      if (error !== undefined && error !== 'revert') failed = true
    },
    log() {},
    account: (word) => void touchIn(interpreted, accountKey(bytesToBigInt(word))),
    slot: (address, slot) => void touchIn(interpreted, bytesToHex(address)).add(bytesToHex(slot)),
  }
  const takes = (result: ExecResult) => {
    const error = result.exceptionError?.error
    if (failed || (error !== undefined && error !== 'revert')) return false
    for (const [address, slots] of interpreted) for (const slot of slots) touch(address).add(slot)
    for (const address of interpreted.keys()) touch(address)
    return true
  }
  let stepping = false
  const fallback = () => {
    interpreted = new Map()
    failed = false
    if (!stepping) evm.events!.on('step', onStep)
    stepping = true
  }
  evm.events!.on('beforeMessage', onBeforeMessage)
  if (!traceFrames(evm, { tracer: frames, fallback, takes })) fallback()
  return {
    touch,
    async result(pre: StateReader, post: StateReader, diffMode: boolean) {
      const read = async (state: StateReader, address: string, slots: Set<string>): Promise<Account | undefined> => {
        const addr = new Address(setLengthLeft(bigIntToBytes(BigInt(address)), 20))
        const account = await state.getAccount(addr)
        if (!account) return undefined
        const out: Account = { balance: bigIntToHex(account.balance), nonce: Number(account.nonce) }
        const code = await state.getCode(addr)
        if (code.length > 0) out.code = bytesToHex(code)
        for (const slot of [...slots].sort()) {
          const value = setLengthLeft(await state.getStorage(addr, setLengthLeft(bigIntToBytes(BigInt(slot)), 32)), 32)
          ;(out.storage ??= {})[slot] = bytesToHex(value)
        }
        return out
      }
      const before: Record<string, Account> = {}
      const after: Record<string, Account> = {}
      for (const address of [...touched.keys()].sort()) {
        const slots = touched.get(address)!
        const a = await read(pre, address, slots)
        if (a) before[address] = a
        if (diffMode) {
          const b = await read(post, address, slots)
          if (b) after[address] = b
        }
      }
      if (!diffMode) return before
      // diffMode keeps only what changed, as geth
      const pre_: Record<string, Account> = {}
      const post_: Record<string, Account> = {}
      for (const address of new Set([...Object.keys(before), ...Object.keys(after)])) {
        if (JSON.stringify(before[address]) === JSON.stringify(after[address])) continue
        if (before[address]) pre_[address] = before[address]
        if (after[address]) {
          const changed: Account = {}
          for (const key of ['balance', 'nonce', 'code'] as const) {
            if (JSON.stringify(after[address][key]) !== JSON.stringify(before[address]?.[key]))
              (changed as Record<string, unknown>)[key] = after[address][key]
          }
          const storage = Object.entries(after[address].storage ?? {}).filter(
            ([k, v]) => before[address]?.storage?.[k] !== v,
          )
          if (storage.length) changed.storage = Object.fromEntries(storage)
          post_[address] = changed
        }
      }
      return { pre: pre_, post: post_ }
    },
    detach() {
      untraceFrames(evm)
      evm.events!.off('step', onStep)
      evm.events!.off('beforeMessage', onBeforeMessage)
    },
  }
}
