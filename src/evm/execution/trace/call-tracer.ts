/**
 * geth's callTracer from the EVM's message events (and, on an EVM whose outermost frames run on the
 * interpreter, the interpreter's reports of the child frames: interpreter/frame-tracer.ts): one frame per
 * call or creation, nested in `calls`, with `onlyTopCall` and `withLog`. The top frame's gasUsed is the
 * receipt's, as geth reports.
 */
import type { EVM, EVMResult, InterpreterStep, Message } from '@ethereumjs/evm'
import { bigIntToHex, bytesToHex } from '@ethereumjs/util'
import { revertReason } from '../revert.js'
import { CALL_OPS } from './struct-logger.js'
import { CALL_TYPES, type FrameTracer, traceFrames, untraceFrames } from '../../interpreter/frame-tracer.js'

type CallLog = { address: string; topics: string[]; data: string; index?: string; position: string }
export type CallFrame = {
  type: string
  from: string
  to?: string
  value?: string
  gas: string
  gasUsed: string
  input: string
  output?: string
  error?: string
  revertReason?: string
  calls?: CallFrame[]
  logs?: CallLog[]
}

export function attachCallTracer(
  evm: EVM,
  tx: { readonly to?: unknown },
  options: { onlyTopCall?: boolean; withLog?: boolean },
) {
  const stack: CallFrame[] = []
  let root: CallFrame | undefined
  const lastOp = new Map<number, string>()
  const open = (type: string, from: string, to: string | undefined, value: bigint, gas: bigint, input: Uint8Array) => {
    const frame: CallFrame = { type, from, to, gas: bigIntToHex(gas), gasUsed: '0x0', input: bytesToHex(input) }
    if (type !== 'DELEGATECALL' && type !== 'STATICCALL') frame.value = bigIntToHex(value)
    if (stack.length > 0) {
      if (!options.onlyTopCall) (stack[stack.length - 1].calls ??= []).push(frame)
    } else root = frame
    stack.push(frame)
  }
  const close = (gasUsed: bigint, output: Uint8Array, error: string | undefined) => {
    const frame = stack.pop()!
    frame.gasUsed = bigIntToHex(gasUsed)
    if (output.length > 0) frame.output = bytesToHex(output)
    if (error !== undefined) {
      frame.error = error === 'revert' ? 'execution reverted' : error
      const reason = error === 'revert' ? revertReason(output) : undefined
      if (reason !== undefined) frame.revertReason = reason
    }
    return frame
  }
  const addLog = (address: string, topics: string[], data: string) => {
    if (!options.withLog || stack.length === 0) return
    const frame = stack[stack.length - 1]
    ;(frame.logs ??= []).push({
      address,
      topics,
      data,
      index: '0x0', // numbered when the transaction is done (indexLogs)
      position: bigIntToHex(BigInt(frame.calls?.length ?? 0)),
    })
  }
  const onStep = (step: InterpreterStep, resolve?: () => void) => {
    if (CALL_OPS.has(step.opcode.name)) lastOp.set(step.depth, step.opcode.name)
    const s = step.stack
    const n = options.withLog && step.opcode.name.startsWith('LOG') ? Number(step.opcode.name.slice(3)) : -1
    // a LOG short of stack items fails (its frame's logs are dropped): its step has no log to read
    if (n >= 0 && s.length >= 2 + n) {
      const offset = Number(s[s.length - 1])
      const size = Number(s[s.length - 2])
      const topics = Array.from({ length: n }, (_, i) => `0x${s[s.length - 3 - i].toString(16).padStart(64, '0')}`)
      addLog(step.address.toString(), topics, bytesToHex(logData(step.memory, offset, size)))
    }
    resolve?.()
  }
  const onBeforeMessage = (message: Message, resolve?: () => void) => {
    const type =
      message.depth === 0 ? (tx.to === undefined ? 'CREATE' : 'CALL') : (lastOp.get(message.depth - 1) ?? 'CALL')
    const input = message.data.length ? message.data : ((message.code as Uint8Array | undefined) ?? new Uint8Array())
    open(type, message.caller.toString(), message.to?.toString(), message.value, message.gasLimit, input)
    resolve?.()
  }
  const onAfterMessage = (result: EVMResult, resolve?: () => void) => {
    const { execResult } = result
    const frame = close(execResult.executionGasUsed, execResult.returnValue, execResult.exceptionError?.error)
    if (result.createdAddress) frame.to = result.createdAddress.toString()
    resolve?.()
  }
  // on an EVM whose outermost frames run on the interpreter, the interpreter reports the child frames and
  // logs (runCall's message events still bracket the outermost frame); step events only for a frame it hands back
  const frames: FrameTracer = {
    enter: (op, from, to, value, gas, input) =>
      open(CALL_TYPES[op], bytesToHex(from), bytesToHex(to), value, BigInt(gas), input),
    exit: (gasUsed, output, error) => void close(gasUsed, output, error),
    log: (address, topics, data) => addLog(bytesToHex(address), topics.map(bytesToHex), bytesToHex(data)),
  }
  let stepping = false
  const takeSteps = () => {
    if (!stepping) evm.events!.on('step', onStep)
    stepping = true
  }
  const fallback = () => {
    // what the interpreter reported of the frame before handing it back is dropped: @ethereumjs runs it again
    stack.length = Math.min(stack.length, 1)
    if (root) {
      delete root.calls
      delete root.logs
    }
    takeSteps()
  }
  evm.events!.on('beforeMessage', onBeforeMessage)
  evm.events!.on('afterMessage', onAfterMessage)
  if (!traceFrames(evm, { tracer: frames, fallback })) takeSteps()
  return {
    /** `firstLogIndex`: the block's logs before this transaction's (geth's log index is the block's). */
    result(txGasUsed: bigint, firstLogIndex = 0): CallFrame {
      // the top frame's gas is what the call got after intrinsic gas (as anvil; geth reports the gas limit),
      // its gasUsed the receipt's
      root!.gasUsed = bigIntToHex(txGasUsed)
      if (options.withLog) indexLogs(root!, false, { next: firstLogIndex })
      return root!
    },
    detach() {
      untraceFrames(evm)
      evm.events!.off('step', onStep)
      evm.events!.off('beforeMessage', onBeforeMessage)
      evm.events!.off('afterMessage', onAfterMessage)
    },
  }
}

/**
 * A LOG's data as the log holds it: the step's memory is the frame's before the LOG expands it, so what lies
 * beyond it reads as zeros (as in the receipt, and geth's trace). A size no memory could reach leaves the
 * data short: that LOG runs out of gas, and its frame's logs are dropped.
 */
function logData(memory: Uint8Array, offset: number, size: number): Uint8Array {
  if (offset + size <= memory.length || size > MAX_PADDED_LOG) return memory.subarray(offset, offset + size)
  const data = new Uint8Array(size)
  if (offset < memory.length) data.set(memory.subarray(offset))
  return data
}

/** 16 MB: its memory alone costs more gas than a block holds. */
const MAX_PADDED_LOG = 1 << 24

/**
 * geth's clearFailedLogs and log indexes: a failed frame's logs and those of every frame under it are
 * dropped (reverted with it), and the kept ones numbered in the order they were emitted, a frame's logs
 * before the subcall at their `position`.
 */
function indexLogs(frame: CallFrame, parentFailed: boolean, counter: { next: number }): void {
  const failed = parentFailed || frame.error !== undefined
  if (failed) delete frame.logs
  const logs = frame.logs ?? []
  const calls = frame.calls ?? []
  let l = 0
  for (let c = 0; c <= calls.length; c++) {
    for (; l < logs.length && Number(logs[l].position) <= c; l++) logs[l].index = bigIntToHex(BigInt(counter.next++))
    if (c < calls.length) indexLogs(calls[c], failed, counter)
  }
}
