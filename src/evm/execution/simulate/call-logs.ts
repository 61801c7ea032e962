/**
 * The logs of one simulated call in the order they happened, with `traceTransfers`' ERC-7528 pseudo-logs
 * (a Transfer(from, to, value) from 0xeeee…eeee for every value-moving call frame and SELFDESTRUCT) among
 * them, as geth's simulate tracer: a frame's logs are kept only if the frame succeeds.
 */
import type { EVMResult, InterpreterStep, Message } from '@ethereumjs/evm'
import { bigIntToBytes, hexToBytes, setLengthLeft } from '@ethereumjs/util'
import type { VM } from '@ethereumjs/vm'
import type { LogBody } from '../../../domain/types.js'

const TRANSFER_TOPIC = hexToBytes('0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef')
const TRANSFER_EMITTER = hexToBytes('0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee')

const word = (bytes: Uint8Array) => setLengthLeft(bytes, 32)

/** A log with its index in the block, given when it was emitted (geth counts logs later dropped too). */
export type IndexedLog = LogBody & { logIndex: number }

function transfer(from: Uint8Array, to: Uint8Array, value: bigint): LogBody {
  return {
    address: TRANSFER_EMITTER,
    topics: [TRANSFER_TOPIC, word(from), word(to)],
    data: word(bigIntToBytes(value)),
  }
}

/** Collects one call's logs with its transfers while attached to the VM's EVM. */
export class TransferTracer {
  /** The open frames' logs; a create's transfer waits for the address it created. */
  private frames: { logs: IndexedLog[]; pendingCreate?: { from: Uint8Array; value: bigint } }[] = []
  private done: IndexedLog[] = []
  /** Logs emitted in this block so far, kept or not. */
  count = 0

  private indexed(log: LogBody): IndexedLog {
    return { ...log, logIndex: this.count++ }
  }

  private readonly onMessage = (message: Message) => {
    const frame: (typeof this.frames)[number] = { logs: [] }
    // CALLCODE runs another account's code on this one: no value leaves the frame's address
    const callcode =
      message.to !== undefined && message.caller.equals(message.to) && !message.codeAddress.equals(message.to)
    if (message.value > 0n && !message.delegatecall && !callcode) {
      if (message.to === undefined) frame.pendingCreate = { from: message.caller.bytes, value: message.value }
      else frame.logs.push(this.indexed(transfer(message.caller.bytes, message.to.bytes, message.value)))
    }
    this.frames.push(frame)
  }

  private readonly onResult = (result: EVMResult) => {
    const frame = this.frames.pop()
    if (!frame) return
    if (frame.pendingCreate && result.createdAddress)
      frame.logs.unshift(
        this.indexed(transfer(frame.pendingCreate.from, result.createdAddress.bytes, frame.pendingCreate.value)),
      )
    if (result.execResult.exceptionError) return
    const parent = this.frames[this.frames.length - 1]
    if (parent) parent.logs.push(...frame.logs)
    else this.done = frame.logs
  }

  private readonly onStep = (step: InterpreterStep) => {
    const frame = this.frames[this.frames.length - 1]
    if (!frame) return
    const name = step.opcode.name
    const stack = step.stack
    const top = (i: number) => stack[stack.length - 1 - i]
    if (name.startsWith('LOG')) {
      const offset = Number(top(0))
      const size = Number(top(1))
      const data = new Uint8Array(size)
      data.set(step.memory.subarray(offset, offset + size))
      const topics = Array.from({ length: Number(name.slice(3)) }, (_, i) => word(bigIntToBytes(top(2 + i))))
      frame.logs.push(this.indexed({ address: step.address.bytes, topics, data }))
    } else if (name === 'SELFDESTRUCT' && step.account.balance > 0n) {
      const beneficiary = word(bigIntToBytes(top(0))).subarray(12)
      frame.logs.push(this.indexed(transfer(step.address.bytes, beneficiary, step.account.balance)))
    }
  }

  attach(vm: VM): void {
    vm.evm.events!.on('beforeMessage', this.onMessage)
    vm.evm.events!.on('afterMessage', this.onResult)
    vm.evm.events!.on('step', this.onStep)
  }

  detach(vm: VM): void {
    vm.evm.events!.off('beforeMessage', this.onMessage)
    vm.evm.events!.off('afterMessage', this.onResult)
    vm.evm.events!.off('step', this.onStep)
  }

  /** The logs of the call that just ran (none if it failed), and a fresh start for the next. */
  take(): IndexedLog[] {
    const logs = this.done
    this.done = []
    this.frames = []
    return logs
  }
}
