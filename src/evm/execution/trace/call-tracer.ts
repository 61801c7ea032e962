/**
 * geth's callTracer from the EVM's message events: one frame per call or creation, nested in `calls`,
 * with `onlyTopCall` and `withLog`. The top frame's gasUsed is the receipt's, as geth reports.
 */
import type { EVM, EVMResult, InterpreterStep, Message } from '@ethereumjs/evm'
import { bigIntToHex, bytesToHex } from '@ethereumjs/util'
import { revertReason } from '../revert.js'
import { CALL_OPS } from './struct-logger.js'

type CallLog = { address: string; topics: string[]; data: string; position: string }
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
  const onStep = (step: InterpreterStep, resolve?: () => void) => {
    if (CALL_OPS.has(step.opcode.name)) lastOp.set(step.depth, step.opcode.name)
    if (options.withLog && step.opcode.name.startsWith('LOG') && stack.length > 0) {
      const n = Number(step.opcode.name.slice(3))
      const s = step.stack
      const offset = Number(s[s.length - 1])
      const size = Number(s[s.length - 2])
      const topics = Array.from({ length: n }, (_, i) => `0x${s[s.length - 3 - i].toString(16).padStart(64, '0')}`)
      const frame = stack[stack.length - 1]
      ;(frame.logs ??= []).push({
        address: step.address.toString(),
        topics,
        data: bytesToHex(step.memory.subarray(offset, offset + size)),
        position: bigIntToHex(BigInt(frame.calls?.length ?? 0)),
      })
    }
    resolve?.()
  }
  const onBeforeMessage = (message: Message, resolve?: () => void) => {
    const type =
      message.depth === 0 ? (tx.to === undefined ? 'CREATE' : 'CALL') : (lastOp.get(message.depth - 1) ?? 'CALL')
    const frame: CallFrame = {
      type,
      from: message.caller.toString(),
      to: message.to?.toString(),
      gas: bigIntToHex(message.gasLimit),
      gasUsed: '0x0',
      input: bytesToHex(
        message.data.length ? message.data : ((message.code as Uint8Array | undefined) ?? new Uint8Array()),
      ),
    }
    if (type !== 'DELEGATECALL' && type !== 'STATICCALL') frame.value = bigIntToHex(message.value)
    if (stack.length > 0) {
      if (!options.onlyTopCall) (stack[stack.length - 1].calls ??= []).push(frame)
    } else root = frame
    stack.push(frame)
    resolve?.()
  }
  const onAfterMessage = (result: EVMResult, resolve?: () => void) => {
    const frame = stack.pop()!
    frame.gasUsed = bigIntToHex(result.execResult.executionGasUsed)
    if (result.createdAddress) frame.to = result.createdAddress.toString()
    const output = result.execResult.returnValue
    if (output.length > 0) frame.output = bytesToHex(output)
    const error = result.execResult.exceptionError
    if (error) {
      frame.error = error.error === 'revert' ? 'execution reverted' : error.error
      const reason = error.error === 'revert' ? revertReason(output) : undefined
      if (reason !== undefined) frame.revertReason = reason
      delete frame.logs // geth drops the logs of a failed frame
    }
    resolve?.()
  }
  evm.events!.on('step', onStep)
  evm.events!.on('beforeMessage', onBeforeMessage)
  evm.events!.on('afterMessage', onAfterMessage)
  return {
    result(txGasUsed: bigint): CallFrame {
      // geth: the top frame's gas is what the call got after intrinsic gas, its gasUsed the receipt's
      root!.gasUsed = bigIntToHex(txGasUsed)
      return root!
    },
    detach() {
      evm.events!.off('step', onStep)
      evm.events!.off('beforeMessage', onBeforeMessage)
      evm.events!.off('afterMessage', onAfterMessage)
    },
  }
}
