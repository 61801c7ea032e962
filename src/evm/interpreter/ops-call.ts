/**
 * CALL, CALLCODE, DELEGATECALL and STATICCALL without value: a child frame of the interpreter (or a
 * precompile through the EVM's own), EIP-150's 63/64, EIP-2929's access cost, the journal mark that undoes a
 * failed child's writes, warmings, logs and refunds. RETURN, REVERT, STOP and INVALID end a frame. A call
 * with value, an EIP-7702 delegation and the CREATE family restart the call on the reference path.
 */
import { EVMError, type ExecResult } from '@ethereumjs/evm'
import { FAILED, Frame, RETURNED, REVERTED } from './frame.js'
import { COLD_ACCOUNT, STACK_LIMIT, WARM } from './shapes.js'
import { Fallback, type Touched } from './host.js'
import * as w from './word.js'
import { analyse } from './analysis.js'

type Handler = (f: Frame) => void | Promise<void>
/** Runs a frame to its end: synchronously when nothing waits (run.ts). */
type Run = (f: Frame) => void | Promise<void>
const CALL = 0xf1
const CALLCODE = 0xf2
const DELEGATECALL = 0xf4
const STATICCALL = 0xfa
const EMPTY = new Uint8Array(0)

const at = (f: Frame, depth: number) => (f.sp - 1 - depth) * 8

function end(status: typeof RETURNED | typeof REVERTED): Handler {
  return (f) => {
    const offset = w.saturated(f.stack, at(f, 0))
    const length = w.saturated(f.stack, at(f, 1))
    if (!f.expand(offset, length)) return
    f.sp -= 2
    f.out = f.read(offset, length)
    f.status = status
  }
}

/** Where a call's result goes: the stack slot of its success flag and the memory of its output. */
interface Out {
  t: number
  offset: number
  length: number
}

function pushResult(f: Frame, out: Out, ok: boolean): void {
  w.setSmall(f.stack, out.t, ok ? 1 : 0)
  const data = f.returnData
  const n = Math.min(out.length, data.length)
  if (n > 0) f.mem.set(data.subarray(0, n), out.offset)
}

function callOp(kind: number, run: Run): Handler {
  const hasValue = kind === CALL || kind === CALLCODE
  const items = hasValue ? 7 : 6
  return (f) => {
    const s = f.stack
    const wanted = w.saturated(s, at(f, 0))
    const target = f.host.accountAt(s, at(f, 1))
    if (hasValue && !w.isZero(s, at(f, 2))) {
      if (kind === CALL && f.isStatic) return f.fail('static state change')
      throw new Fallback('call with value')
    }
    const base = hasValue ? 3 : 2
    const inOffset = w.saturated(s, at(f, base))
    const inLength = w.saturated(s, at(f, base + 1))
    const outOffset = w.saturated(s, at(f, base + 2))
    const outLength = w.saturated(s, at(f, base + 3))
    if (!f.expand(inOffset, inLength) || !f.expand(outOffset, outLength)) return
    const cost = f.host.journal.warm(target) ? COLD_ACCOUNT : WARM
    f.sp -= items
    const out = { t: f.sp * 8, offset: outOffset, length: outLength }
    // the input stays in the caller's memory, which does not change while the child runs
    const input = inLength === 0 ? EMPTY : f.mem.subarray(inOffset, inOffset + inLength)
    const code = f.host.code(target)
    return code instanceof Promise
      ? code.then((c) => enter(f, kind, run, c, target, cost, wanted, input, out))
      : enter(f, kind, run, code, target, cost, wanted, input, out)
  }
}

/** The call once the target's code is read: its price, then a precompile or a child frame. */
function enter(
  f: Frame,
  kind: number,
  run: Run,
  code: Uint8Array,
  target: Touched,
  cost: number,
  wanted: number,
  input: Uint8Array,
  out: Out,
): void | Promise<void> {
  if (code.length >= 3 && code[0] === 0xef && code[1] === 0x01 && code[2] === 0x00)
    throw new Fallback('EIP-7702 delegation')
  if (!f.use(cost)) return
  const allowed = f.gas - Math.floor(f.gas / 64)
  const gas = wanted < allowed ? wanted : allowed
  f.gas -= gas
  f.sp++
  f.returnData = EMPTY
  const { host } = f
  if (f.depth >= STACK_LIMIT) {
    f.gas += gas
    return pushResult(f, out, false)
  }
  const mark = host.journal.mark()
  touch(f, kind, target)
  const delegated = kind === DELEGATECALL || kind === CALLCODE
  const caller = kind === DELEGATECALL ? f.caller : f.addressBytes
  // @ethereumjs's Message: a DELEGATECALL's or CALLCODE's `to` is the caller's own address
  host.tracer?.enter(
    kind,
    caller,
    delegated ? f.addressBytes : target.bytes,
    kind === DELEGATECALL ? f.value : 0n,
    gas,
    input,
  )
  const { precompile } = target
  if (precompile) {
    // as EVM.runPrecompile calls it (the call path's EVMs have no debug logging); a copy of the input, as
    // a precompile may hand it back as its output
    const result = precompile({ data: input.slice(), gasLimit: BigInt(gas), common: host.evm.common, _EVM: host.evm })
    return result instanceof Promise
      ? result.then((r) => precompiled(f, r, gas, out, mark))
      : precompiled(f, result, gas, out, mark)
  }
  if (code.length === 0) {
    host.journal.keep()
    f.gas += gas
    host.tracer?.exit(0n, EMPTY, undefined)
    return pushResult(f, out, true)
  }
  const child = Frame.take(
    host,
    code,
    analyse(code),
    delegated ? f.account : target,
    caller,
    input,
    f.isStatic || kind === STATICCALL,
    f.depth + 1,
    gas,
    kind === DELEGATECALL ? f.value : 0n,
  )
  const logs = host.logs.length
  const refund = host.refund
  const done = run(child)
  if (done !== undefined) return done.then(() => returned(f, child, gas, mark, logs, refund, out))
  returned(f, child, gas, mark, logs, refund, out)
}

/**
 * EIP-161's touches of a child frame as @ethereumjs's _executeCall makes them: its value transfer (zero
 * included) writes the caller's and the recipient's accounts back, except a DELEGATECALL's; a CALLCODE's
 * recipient is the caller itself. A failed frame's are undone, but for RIPEMD-160's address (its journal's
 * exception, from the 2016 consensus issue).
 */
function touch(f: Frame, kind: number, target: Touched): void {
  if (kind === DELEGATECALL) return
  const { journal } = f.host
  journal.touch(f.account, false)
  if (kind !== CALLCODE) journal.touch(target, isRipemd(target.bytes))
}

/** Whether the address bytes are RIPEMD-160's (0x…03). */
export function isRipemd(a: Uint8Array): boolean {
  if (a[19] !== 3) return false
  for (let i = 0; i < 19; i++) if (a[i] !== 0) return false
  return true
}

function precompiled(f: Frame, result: ExecResult, gas: number, out: Out, mark: number): void {
  const failed = result.exceptionError !== undefined
  f.host.tracer?.exit(result.executionGasUsed, result.returnValue, result.exceptionError?.error)
  if (failed) f.host.journal.revert(mark)
  else f.host.journal.keep()
  if (!failed) {
    f.gas += gas - Number(result.executionGasUsed)
    f.returnData = result.returnValue
  }
  pushResult(f, out, !failed)
}

/** The child's end (of `gas`): its writes kept or undone, its gas and output handed back, the frame given back. */
function returned(f: Frame, child: Frame, gas: number, mark: number, logs: number, refund: number, out: Out): void {
  const { host } = f
  host.tracer?.exit(
    BigInt(child.status === FAILED ? gas : gas - child.gas),
    child.status === FAILED ? EMPTY : child.out,
    child.status === FAILED ? child.error : child.status === REVERTED ? EVMError.errorMessages.REVERT : undefined,
  )
  if (child.status === RETURNED) host.journal.keep()
  else {
    host.journal.revert(mark)
    host.logs.length = logs
    host.refund = refund
  }
  if (child.status !== FAILED) {
    f.gas += child.gas
    f.returnData = child.out
  }
  pushResult(f, out, child.status === RETURNED)
  child.release()
}

export function callOps(run: Run): [number, Handler][] {
  return [
    [0x00, (f) => void (f.status = RETURNED)],
    [0xf3, end(RETURNED)],
    [0xfd, end(REVERTED)],
    [CALL, callOp(CALL, run)],
    [CALLCODE, callOp(CALLCODE, run)],
    [DELEGATECALL, callOp(DELEGATECALL, run)],
    [STATICCALL, callOp(STATICCALL, run)],
  ]
}
