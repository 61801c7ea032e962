/**
 * The interpreter's loop and the outermost frame of a read-only call. The loop runs a frame's opcodes
 * through the dispatch table (table.ts) in a synchronous function, up to CLOCK_EVERY + 1 at a time; around it,
 * `run` goes on synchronously until a handler returns a promise (a state read the read view does not have at
 * hand, a child call that waits) or, under a time budget, the slice is over (execution/budget.ts), and only
 * then awaits. A child call whose reads are all at hand so ends within its caller's CALL, without a promise.
 */
import type { Block } from '@ethereumjs/block'
import { type EVM, EVMError, type EVMResult, type ExecResult } from '@ethereumjs/evm'
import type { Address } from '@ethereumjs/util'
import { andThen, type Eventually, withCleanup } from '../../capabilities/eventually.js'
import type { StateSource } from '../execution/call-state.js'
import type { Paid } from '../execution/call-payment.js'
import { type Budget, budgetOf, keepTime } from '../execution/budget.js'
import { analyse, newCall } from './analysis.js'
import { FAILED, Frame, MAX_GAS, RETURNED, REVERTED, RUNNING } from './frame.js'
import type { FrameTracer } from './frame-tracer.js'
import { Fallback, Host, type Touched } from './host.js'
import { heat } from './heat.js'
import { prime } from './prime.js'
import { buildTable } from './table.js'
import { steps } from './loop.js'

const handlers = buildTable(run)
prime(run)

/**
 * Runs `f` to its end: synchronously while nothing is to be awaited (a child call whose reads are all cached
 * ends within its caller's CALL), else the promise of its end.
 */
function run(f: Frame): void | Promise<void> {
  const budget = f.host.budget
  while (f.status === RUNNING) {
    const pending = steps(f, handlers)
    if (pending !== undefined) return pending.then(() => run(f))
    if (budget !== undefined && f.status === RUNNING && turnDue(budget)) return keepTime(budget).then(() => run(f))
  }
}

/** Whether keepTime has anything to do: the slice is over or the deadline passed. */
function turnDue(budget: Budget): boolean {
  const now = performance.now()
  return now >= budget.sliceEnd || now > budget.deadline
}

export interface InterpretedCall {
  block: Block
  from: Address
  to: Address
  data: Uint8Array
  gasLimit: bigint
  /** A call that pays (fee fields or a value): its accounts, price and value as runTx starts it (call-payment.ts). */
  paid?: Paid
}

/**
 * The call's outermost frame on the interpreter, over `source` (which it never writes), with EIP-2929's
 * warm set of a transaction (the precompiles, sender, recipient and coinbase). Throws Fallback when the call
 * needs what the interpreter does not run; the caller then runs the whole call on the reference path.
 */
export function interpret(evm: EVM, source: StateSource, call: InterpretedCall): Eventually<EVMResult> {
  if (call.gasLimit > BigInt(MAX_GAS)) throw new Fallback('gas limit above the interpreter cap')
  const host = new Host(evm, source, call.block, call.from.bytes, budgetOf(evm))
  const sender = host.account(call.from.bytes, true)
  host.account(call.block.header.coinbase.bytes, true)
  const target = host.account(call.to.bytes, true)
  const { paid } = call
  if (paid) {
    host.gasPrice = paid.gasPrice
    sender.account = paid.sender
    if (paid.recipient) target.account = paid.recipient
  }
  return andThen(host.code(target), (code) => runCode(host, target, code, call))
}

/** The outermost frame on the recipient's code: without a promise when no frame had to wait. */
function runCode(host: Host, target: Touched, code: Uint8Array, call: InterpretedCall): Eventually<EVMResult> {
  if (code.length >= 3 && code[0] === 0xef && code[1] === 0x01 && code[2] === 0x00)
    throw new Fallback('EIP-7702 delegation')
  const gasLimit = Number(call.gasLimit)
  if (code.length === 0) {
    // nothing ran, but the journal took its words (a transfer to an account without code: most of the estimates wallets ask)
    host.release()
    return { execResult: { returnValue: new Uint8Array(0), executionGasUsed: 0n, gasRefund: 0n } }
  }
  newCall()
  const frame = Frame.take(
    host,
    code,
    analyse(code),
    target,
    call.from.bytes,
    call.data,
    false,
    0,
    gasLimit,
    call.paid?.value,
  )
  return withCleanup(
    () => {
      const done = run(frame)
      return done === undefined ? resultOf(frame, gasLimit) : done.then(() => resultOf(frame, gasLimit))
    },
    () => {
      frame.release()
      host.release()
    },
  )
}

/** A message's outermost frame as runCall enters it inside runTx (its value already moved, its code loaded). */
export interface InterpretedMessage {
  block: Block
  caller: Address
  to: Address
  code: Uint8Array
  data: Uint8Array
  gasLimit: bigint
  value: bigint
  gasPrice: bigint
  /** A traced transaction's tracer of child frames and logs. */
  tracer?: FrameTracer
}

/**
 * The frame on the interpreter over `source`, which it reads and never writes; `settle` gets the host and the
 * frame's result before they are given back, to apply what the frame wrote (frame-writes.ts). Throws Fallback
 * (nothing written) when the frame needs what the interpreter does not run.
 */
export async function interpretMessage(
  evm: EVM,
  source: StateSource,
  m: InterpretedMessage,
  settle: (host: Host, result: ExecResult) => Promise<void>,
): Promise<ExecResult> {
  if (m.gasLimit > BigInt(MAX_GAS)) throw new Fallback('gas limit above the interpreter cap')
  const host = new Host(evm, source, m.block, m.caller.bytes, budgetOf(evm))
  host.gasPrice = m.gasPrice
  host.tracer = m.tracer
  host.account(m.caller.bytes, true)
  host.account(m.block.header.coinbase.bytes, true)
  const target = host.account(m.to.bytes, true)
  const gasLimit = Number(m.gasLimit)
  newCall()
  const frame = Frame.take(host, m.code, analyse(m.code), target, m.caller.bytes, m.data, false, 0, gasLimit, m.value)
  try {
    await run(frame)
    const { execResult } = resultOf(frame, gasLimit)
    await settle(host, execResult)
    return execResult
  } finally {
    frame.release()
    host.release()
  }
}

function resultOf(frame: Frame, gasLimit: number): EVMResult {
  const { status, host } = frame
  const used = BigInt(gasLimit - frame.gas)
  if (status === RETURNED)
    return {
      execResult: {
        returnValue: frame.out,
        executionGasUsed: used,
        gasRefund: BigInt(host.refund),
        logs: host.logs,
        gas: BigInt(frame.gas),
      },
    }
  const error = status === FAILED ? frame.error! : EVMError.errorMessages.REVERT
  return {
    execResult: {
      returnValue: status === REVERTED ? frame.out : new Uint8Array(0),
      executionGasUsed: status === FAILED ? BigInt(gasLimit) : used,
      gasRefund: 0n,
      logs: [],
      exceptionError: new EVMError(error as never),
      gas: BigInt(frame.gas),
    },
  }
}

/** One slice of the heating loop (heat.ts), for a warm-up in idle turns. */
export function heatSlice(): void {
  heat(run)
}
