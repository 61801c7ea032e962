/**
 * CALL, CALLCODE, DELEGATECALL and STATICCALL without value: a child frame of the interpreter (or a
 * precompile through the EVM's own), EIP-150's 63/64, EIP-2929's access cost, the journal mark that undoes a
 * failed child's writes, warmings, logs and refunds. RETURN, REVERT, STOP and INVALID end a frame. A call
 * with value, an EIP-7702 delegation and the CREATE family restart the call on the reference path.
 */
import { Address } from '@ethereumjs/util'
import { FAILED, Frame, RETURNED, REVERTED } from './frame.js'
import { COLD_ACCOUNT, STACK_LIMIT, WARM } from './shapes.js'
import { Fallback } from './host.js'
import * as w from './word.js'
import { analyse } from './analysis.js'

type Handler = (f: Frame) => void | Promise<void>
type Run = (f: Frame) => Promise<void>
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

function pushResult(f: Frame, t: number, ok: boolean, outOffset: number, outLength: number): void {
  w.setSmall(f.stack, t, ok ? 1 : 0)
  const data = f.returnData
  const n = Math.min(outLength, data.length)
  if (n > 0) f.mem.set(data.subarray(0, n), outOffset)
}

function callOp(kind: number, run: Run): Handler {
  const hasValue = kind === CALL || kind === CALLCODE
  const items = hasValue ? 7 : 6
  return (f) => {
    const s = f.stack
    const wanted = w.saturated(s, at(f, 0))
    const target = w.addressHex(s, at(f, 1))
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
    const cost = f.host.warmAddress(target) ? COLD_ACCOUNT : WARM
    const code = f.host.code(target)
    return code instanceof Promise
      ? code.then((c) => enter(f, kind, run, c, target, cost, wanted, items, inOffset, inLength, outOffset, outLength))
      : enter(f, kind, run, code, target, cost, wanted, items, inOffset, inLength, outOffset, outLength)
  }
}

async function enter(
  f: Frame,
  kind: number,
  run: Run,
  code: Uint8Array,
  target: string,
  cost: number,
  wanted: number,
  items: number,
  inOffset: number,
  inLength: number,
  outOffset: number,
  outLength: number,
): Promise<void> {
  if (code.length >= 3 && code[0] === 0xef && code[1] === 0x01 && code[2] === 0x00)
    throw new Fallback('EIP-7702 delegation')
  if (!f.use(cost)) return
  const allowed = f.gas - Math.floor(f.gas / 64)
  const gas = wanted < allowed ? wanted : allowed
  f.gas -= gas
  f.sp -= items
  const t = f.sp * 8
  f.sp++
  f.returnData = EMPTY
  const { host } = f
  if (f.depth >= STACK_LIMIT) {
    f.gas += gas
    return pushResult(f, t, false, outOffset, outLength)
  }
  const data = f.read(inOffset, inLength)
  const targetBytes = Uint8Array.from(Buffer.from(target, 'hex'))
  const precompile = host.evm.getPrecompile(new Address(targetBytes))
  if (precompile) {
    // as EVM.runPrecompile calls it (the call path's EVMs have no debug logging)
    const result = await precompile({ data, gasLimit: BigInt(gas), common: host.evm.common, _EVM: host.evm })
    const failed = result.exceptionError !== undefined
    if (!failed) {
      f.gas += gas - Number(result.executionGasUsed)
      f.returnData = result.returnValue
    }
    return pushResult(f, t, !failed, outOffset, outLength)
  }
  if (code.length === 0) {
    f.gas += gas
    return pushResult(f, t, true, outOffset, outLength)
  }
  const delegated = kind === DELEGATECALL || kind === CALLCODE
  const child = new Frame(
    host,
    code,
    analyse(code),
    delegated ? f.address : target,
    delegated ? f.addressBytes : targetBytes,
    kind === DELEGATECALL ? f.caller : f.addressBytes,
    data,
    f.isStatic || kind === STATICCALL,
    f.depth + 1,
    gas,
  )
  const mark = host.mark()
  const logs = host.logs.length
  const refund = host.refund
  try {
    await run(child)
  } finally {
    child.release()
  }
  if (child.status !== RETURNED) {
    host.revert(mark)
    host.logs.length = logs
    host.refund = refund
  }
  if (child.status !== FAILED) {
    f.gas += child.gas
    f.returnData = child.out
  }
  pushResult(f, t, child.status === RETURNED, outOffset, outLength)
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
