/**
 * Call frames without a copy of the interpreter's state. @ethereumjs's runInterpreter returns with every
 * frame's result a `runState` spread together from the interpreter's run state, its result and its env
 * (~45 properties into a new object per frame) that nothing reads on the call path: its EVM, runCall and
 * the CALL opcodes read the result's other fields. On the EVMs `leanFrames` names (the call path's) this
 * runs the frame as the shipped method does, without that copy; every other EVM keeps the shipped method.
 */
import { EVM, EVMError } from '@ethereumjs/evm'
import { Account, BIGINT_0, createZeroAddress } from '@ethereumjs/util'
import { interpreterPrototype } from './evm-internals.js'

type Frame = {
  run(
    code: unknown,
    opts: unknown,
  ): Promise<{ runState: Record<string, unknown> & { gasLeft: bigint }; exceptionError?: EVMError }>
  _result: Record<string, unknown> & { returnValue?: Uint8Array }
}
type InterpreterClass = new (...args: unknown[]) => Frame
type RunInterpreter = (this: EvmInternals, message: Message, opts?: Record<string, unknown>) => Promise<unknown>
type EvmInternals = EVM &
  Record<string, never> & {
    _tx: { gasPrice: bigint; origin?: unknown }
    _block?: unknown
    performanceLogger: unknown
    _optsCached: { profiler?: unknown }
  }
type Message = Record<string, unknown> & { gasLimit: bigint; accessWitness?: { commit(): void } }

const lean = new WeakSet<EVM>()
const Interpreter = interpreterPrototype?.constructor as InterpreterClass | undefined
const prototype = EVM.prototype as unknown as { runInterpreter: RunInterpreter }
const shipped = prototype.runInterpreter
const KEEP_GAS = [EVMError.errorMessages.REVERT, EVMError.errorMessages.INVALID_EOF_FORMAT] as string[]

if (Interpreter && shipped) {
  prototype.runInterpreter = async function (this: EvmInternals, message: Message, opts = {}) {
    if (!lean.has(this) || this._block === undefined) return shipped.call(this, message, opts)
    const contract = (await this.stateManager.getAccount((message.to as never) ?? createZeroAddress())) ?? new Account()
    const env = {
      address: message.to ?? createZeroAddress(),
      caller: message.caller ?? createZeroAddress(),
      callData: message.data ?? Uint8Array.from([0]),
      callValue: message.value ?? BIGINT_0,
      code: message.code,
      isStatic: message.isStatic ?? false,
      isCreate: message.isCreate ?? false,
      depth: message.depth ?? 0,
      gasPrice: this._tx.gasPrice,
      origin: this._tx.origin ?? message.caller ?? createZeroAddress(),
      block: this._block,
      contract,
      codeAddress: message.codeAddress,
      gasRefund: message.gasRefund,
      chargeCodeAccesses: message.chargeCodeAccesses,
      blobVersionedHashes: message.blobVersionedHashes ?? [],
      accessWitness: message.accessWitness,
      createdAddresses: message.createdAddresses,
      initialLogs: opts.initialLogs,
    }
    const interpreter = new Interpreter(
      this,
      this.stateManager,
      this.blockchain,
      env,
      message.gasLimit,
      this.journal,
      this.performanceLogger,
      this._optsCached.profiler,
    )
    if (message.selfdestruct) interpreter._result.selfdestruct = message.selfdestruct
    if (message.createdAddresses) interpreter._result.createdAddresses = message.createdAddresses
    const { runState, exceptionError } = await interpreter.run(message.code, opts)
    let result = interpreter._result
    let gasUsed = message.gasLimit - runState.gasLeft
    if (exceptionError) {
      if (!KEEP_GAS.includes(exceptionError.error)) gasUsed = message.gasLimit
      result = { ...result, logs: [], selfdestruct: new Map(), createdAddresses: new Set() }
    }
    message.accessWitness?.commit()
    return {
      ...result,
      exceptionError,
      gas: runState.gasLeft,
      executionGasUsed: gasUsed,
      gasRefund: runState.gasRefund,
      stateGasSpilled: runState.stateGasSpilled,
      returnValue: result.returnValue ?? new Uint8Array(0),
    }
  }
}

/** Runs `evm`'s frames without the runState copy (an EVM whose results' runState nobody reads). */
export function leanFrames(evm: EVM): void {
  lean.add(evm)
}
