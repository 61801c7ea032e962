/**
 * geth's default tracer (struct logs) from the EVM's step events. Two corrections make it match geth/revm
 * (measured: docs/design/evm-engine.md section 5): the gasCost of the CALL and CREATE families includes the gas handed to
 * the callee, and storage is tracked here because InterpreterStep.storage is not populated in 10.1.3.
 */
import type { EVM, InterpreterStep, Message } from '@ethereumjs/evm'
import { bigIntToBytes, bigIntToHex, bytesToHex, setLengthLeft } from '@ethereumjs/util'

type StructLog = {
  pc: number
  op: string
  gas: number
  gasCost: number
  depth: number
  stack?: string[]
  memory?: string[]
  storage?: Record<string, string>
  refund?: number
  returnData?: string
  error?: string
}

export type StructLoggerOptions = {
  disableStack?: boolean
  disableStorage?: boolean
  enableMemory?: boolean
  enableReturnData?: boolean
}

/** Where @ethereumjs names an opcode otherwise than geth (and revm): 0x44 is DIFFICULTY after the merge too. */
const GETH_NAMES: Record<string, string> = { PREVRANDAO: 'DIFFICULTY' }

export const CALL_OPS = new Set(['CALL', 'CALLCODE', 'DELEGATECALL', 'STATICCALL', 'CREATE', 'CREATE2'])

const word = (value: bigint) => bytesToHex(setLengthLeft(bigIntToBytes(value), 32))

export function attachStructLogger(evm: EVM, options: StructLoggerOptions) {
  const logs: StructLog[] = []
  const storageByAddress = new Map<string, Record<string, string>>()
  const onStep = async (step: InterpreterStep, resolve?: () => void) => {
    const log: StructLog = {
      pc: step.pc,
      op: GETH_NAMES[step.opcode.name] ?? step.opcode.name,
      gas: Number(step.gasLeft),
      gasCost: Number(step.opcode.dynamicFee ?? BigInt(step.opcode.fee)),
      depth: step.depth + 1,
    }
    if (!options.disableStack) log.stack = step.stack.map((v) => bigIntToHex(v))
    if (options.enableMemory) {
      const memory: string[] = []
      for (let i = 0; i < step.memory.length; i += 32) memory.push(bytesToHex(step.memory.subarray(i, i + 32)))
      log.memory = memory
    }
    if (step.gasRefund > 0n) log.refund = Number(step.gasRefund)
    if (!options.disableStorage && (step.opcode.name === 'SLOAD' || step.opcode.name === 'SSTORE')) {
      const address = step.address.toString()
      const storage = storageByAddress.get(address) ?? {}
      const slot = step.stack[step.stack.length - 1]
      if (step.opcode.name === 'SSTORE') storage[word(slot)] = word(step.stack[step.stack.length - 2])
      else {
        const value = await step.stateManager.getStorage(step.address, setLengthLeft(bigIntToBytes(slot), 32))
        storage[word(slot)] = bytesToHex(setLengthLeft(value, 32))
      }
      storageByAddress.set(address, storage)
      log.storage = { ...storage }
    }
    logs.push(log)
    resolve?.()
  }
  const onBeforeMessage = (message: Message, resolve?: () => void) => {
    if (message.depth > 0) {
      for (let i = logs.length - 1; i >= 0; i--) {
        const log = logs[i]
        if (log.depth !== message.depth) continue
        if (CALL_OPS.has(log.op)) {
          const stipend = (log.op === 'CALL' || log.op === 'CALLCODE') && message.value > 0n ? 2300 : 0
          log.gasCost += Number(message.gasLimit) - stipend
        }
        break
      }
    }
    resolve?.()
  }
  evm.events!.on('step', onStep)
  evm.events!.on('beforeMessage', onBeforeMessage)
  return {
    logs,
    detach() {
      evm.events!.off('step', onStep)
      evm.events!.off('beforeMessage', onBeforeMessage)
    },
  }
}
