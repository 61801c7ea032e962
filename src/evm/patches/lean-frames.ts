/**
 * Call frames without a copy of the interpreter's state. @ethereumjs's runInterpreter returns with every
 * frame's result a `runState` spread together from the interpreter's run state, its result and its env
 * (~45 properties into a new object per frame) that nothing reads on the call path: its EVM, runCall and
 * the CALL opcodes read the result's other fields. On the EVMs `leanFrames` names (the call path's) this
 * runs the frame as the shipped method does, without that copy, on frames of the call path's Interpreter class (sync-steps.ts).
 */
import { EVM, EVMError, type Message } from '@ethereumjs/evm'
import { Account, BIGINT_0, createZeroAddress } from '@ethereumjs/util'
import { hookRuns } from './hook-runs.js'
import type { InterpreterClass } from './internals.js'

type RunInterpreter = EVM['runInterpreter']
type Env = ConstructorParameters<InterpreterClass>[3]

const shipped = EVM.prototype['runInterpreter']
const KEEP_GAS = [EVMError.errorMessages.REVERT, EVMError.errorMessages.INVALID_EOF_FORMAT] as string[]

/**
 * The frames of `evm` without the runState copy, as `Interpreter` (the call path's class) runs them: `evm`'s
 * own runInterpreter (an EVM whose results' runState nobody reads); every other EVM keeps the shipped method.
 */
export function leanFrames(evm: EVM, Interpreter: InterpreterClass): void {
  const lean: RunInterpreter = async function (this: EVM, message: Message, opts = {}) {
    const block = this['_block']
    const tx = this['_tx']
    if (block === undefined || tx === undefined) return shipped.call(this, message, opts)
    hookRuns.leanFrames++
    const contract = (await this.stateManager.getAccount(message.to ?? createZeroAddress())) ?? new Account()
    const env: Env = {
      address: message.to ?? createZeroAddress(),
      caller: message.caller ?? createZeroAddress(),
      callData: message.data ?? Uint8Array.from([0]),
      callValue: message.value ?? BIGINT_0,
      code: message.code as Uint8Array,
      isStatic: message.isStatic ?? false,
      isCreate: message.isCreate ?? false,
      depth: message.depth ?? 0,
      gasPrice: tx.gasPrice,
      origin: tx.origin ?? message.caller ?? createZeroAddress(),
      block,
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
      this['performanceLogger'],
      this['_optsCached'].profiler,
    )
    if (message.selfdestruct) interpreter._result.selfdestruct = message.selfdestruct
    if (message.createdAddresses) interpreter._result.createdAddresses = message.createdAddresses
    const { runState, exceptionError } = await interpreter.run(message.code as Uint8Array, opts)
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
  evm['runInterpreter'] = lean
}
