/**
 * One simulated call inside a simulated block: geth's transaction checks first (a call no block could hold
 * fails the whole request with its -380xx code), then the run, its receipt and its result (status, return
 * data, gas, logs, and a revert's or failure's error, which do not fail the request).
 */
import { createBlock, type Block } from '@ethereumjs/block'
import type { TypedTransaction } from '@ethereumjs/tx'
import { Address, bytesToHex } from '@ethereumjs/util'
import { runTx, type RunTxResult, type VM } from '@ethereumjs/vm'
import type { SimulatedCall } from '../../../domain/simulate.js'
import type { LogBody } from '../../../domain/types.js'
import {
  ExecutionTimeoutError,
  SimulateBaseFeeTooLowError,
  SimulateInitCodeSizeError,
  SimulateInsufficientFundsError,
  SimulateIntrinsicGasError,
  SimulateInvalidTransactionError,
  SimulateNonceTooHighError,
  SimulateNonceTooLowError,
} from '../../../errors.js'
import { InvalidParamsError } from '../../../errors/rpc-error.js'
import { gethExecutionError, revertReason } from '../revert.js'
import { type FilledCall, NONCE_MAX } from './sim-tx.js'
import { withBudget } from '../budget.js'
import type { IndexedLog, TransferTracer } from './call-logs.js'

const hexAddress = (bytes: Uint8Array) => bytesToHex(bytes)

/** Where calls of one block run: its VM, its header (as the caller sees it) and the fee rules in force. */
export interface CallContext {
  vm: VM
  /** The simulated block's header fields as the calls see them. */
  block: Block
  validation: boolean
  /** The block's `blobBaseFee` override: what blob gas costs and BLOBBASEFEE reads, whatever the excess says. */
  blobBaseFee?: bigint
  tracer?: TransferTracer
  /** The request's deadline (performance.now() time), which every call's run shares, and its budget (ms). */
  deadline: number
  timeoutMs: number
}

/** geth's preCheck and buyGas, in its order and with its codes. */
async function precheck(ctx: CallContext, call: FilledCall, tx: TypedTransaction): Promise<boolean> {
  const state = ctx.vm.stateManager
  const from = new Address(call.from)
  const account = await state.getAccount(from)
  const nonce = account?.nonce ?? 0n
  const where = `address ${hexAddress(call.from)}`
  if (ctx.validation) {
    if (nonce < call.nonce) throw new SimulateNonceTooHighError(`${where}, tx: ${call.nonce} state: ${nonce}`, call.gas)
    if (nonce > call.nonce) throw new SimulateNonceTooLowError(`${where}, tx: ${call.nonce} state: ${nonce}`, call.gas)
    if (nonce === NONCE_MAX)
      throw new SimulateInvalidTransactionError(`nonce has max value: ${where}, nonce: ${nonce}`, call.gas)
  }
  const feeCap = call.maxFeePerGas ?? call.gasPrice ?? 0n
  const tip = call.maxPriorityFeePerGas ?? call.gasPrice ?? 0n
  const baseFee = ctx.block.header.baseFeePerGas
  const free = !ctx.validation && feeCap === 0n && tip === 0n
  if (baseFee !== undefined && !free) {
    if (feeCap < tip)
      throw new SimulateInvalidTransactionError(
        `max priority fee per gas higher than max fee per gas: ${where}, maxPriorityFeePerGas: ${tip}, maxFeePerGas: ${feeCap}`,
        call.gas,
        InvalidParamsError.code,
      )
    if (feeCap < baseFee)
      throw new SimulateBaseFeeTooLowError(`${where}, maxFeePerGas: ${feeCap}, baseFee: ${baseFee}`, call.gas)
  }
  const blobs = BigInt(call.blobVersionedHashes?.length ?? 0)
  const blobGas = blobs > 0n ? blobs * ctx.vm.common.param('blobGasPerBlob') : 0n
  const want = call.gas * feeCap + call.value + blobGas * (call.maxFeePerBlobGas ?? 0n)
  const have = account?.balance ?? 0n
  if (have < want) throw new SimulateInsufficientFundsError(`${where} have ${have} want ${want}`, call.gas)
  const intrinsic = tx.getIntrinsicGas()
  if (call.gas < intrinsic) throw new SimulateIntrinsicGasError(`have ${call.gas}, want ${intrinsic}`, call.gas)
  const maxInitCode = ctx.vm.common.isActivatedEIP(3860) ? ctx.vm.common.param('maxInitCodeSize') : undefined
  if (call.to === undefined && maxInitCode !== undefined && (call.data?.length ?? 0) > Number(maxInitCode))
    throw new SimulateInitCodeSizeError(`code size ${call.data?.length} limit ${maxInitCode}`, call.gas)
  return free
}

/** Runs the call at the end of the block so far; `gasUsed` is the block's gas before it. */
export async function runSimulatedCall(
  ctx: CallContext,
  call: FilledCall,
  tx: TypedTransaction,
  gasUsed: bigint,
  firstLogIndex: number,
): Promise<{ result: RunTxResult; logs: IndexedLog[]; outcome: Omit<SimulatedCall, 'logs'> }> {
  const free = await precheck(ctx, call, tx)
  const baseFee = ctx.block.header.baseFeePerGas
  // a call without fees under `validation: false` is checked and priced on base fee zero (geth's NoBaseFee);
  // the code it runs still reads the block's base fee: a block of its own, whose base fee shows at the first frame
  const priceless = free && baseFee ? unpricedBlock(ctx) : undefined
  const block = priceless ?? ctx.block
  const events = ctx.vm.evm.events!
  const reveal = () => {
    ;(block.header as { baseFeePerGas?: bigint }).baseFeePerGas = baseFee
    events.off('beforeMessage', reveal)
  }
  if (priceless) events.on('beforeMessage', reveal)
  let result: RunTxResult
  const restore = await allowContractSender(ctx.vm, new Address(call.from))
  ctx.tracer?.attach(ctx.vm)
  try {
    // under the request's deadline, as eth_call's runs: the event loop turns during the call, which stops there
    result = await withBudget(
      ctx.vm.evm,
      ctx.timeoutMs,
      () =>
        runTx(ctx.vm, {
          tx,
          block,
          blockGasUsed: gasUsed,
          skipNonce: true,
          skipBlockGasLimitValidation: true,
          skipHardForkValidation: true,
        }),
      ctx.deadline,
    )
  } catch (err) {
    if (err instanceof ExecutionTimeoutError) throw err
    throw new SimulateInvalidTransactionError(String((err as Error).message ?? err).replace(/ \(.*$/s, ''), call.gas)
  } finally {
    events.off('beforeMessage', reveal)
    ctx.tracer?.detach(ctx.vm)
    restore()
  }
  const sender = await ctx.vm.stateManager.getAccount(new Address(call.from))
  if (sender && sender.nonce > NONCE_MAX) {
    sender.nonce &= NONCE_MAX
    await ctx.vm.stateManager.putAccount(new Address(call.from), sender)
  }
  const exec = result.execResult
  const logs =
    ctx.tracer?.take() ??
    (exec.exceptionError ? [] : receiptLogs(result).map((log, i) => ({ ...log, logIndex: firstLogIndex + i })))
  const error = exec.exceptionError
  const outcome: Omit<SimulatedCall, 'logs'> = {
    // geth answers a failed call's output only in its error's data
    returnData: error ? new Uint8Array() : exec.returnValue,
    gasUsed: result.totalGasSpent,
    maxUsedGas: result.totalGasSpent + result.gasRefund,
    status: error ? 0 : 1,
    ...(error
      ? error.error === 'revert'
        ? {
            error: {
              code: 3,
              message: revertMessage(exec.returnValue),
              data: exec.returnValue,
            },
          }
        : { error: { code: -32015, message: gethExecutionError(error.error) } }
      : {}),
  }
  return { result, logs, outcome }
}

/** The block's header with base fee zero, unfrozen (runSimulatedCall reveals the real one to the code). */
function unpricedBlock(ctx: CallContext): Block {
  const block = createBlock(
    { header: { ...ctx.block.header.toJSON(), baseFeePerGas: 0n } as never },
    { common: ctx.vm.common, skipConsensusFormatValidation: true, freeze: false },
  )
  withBlobBaseFee(block, ctx.blobBaseFee)
  return block
}

/** Makes BLOBBASEFEE and blob gas prices read the block's `blobBaseFee` override, if it has one. */
export function withBlobBaseFee(block: Block, blobBaseFee: bigint | undefined): void {
  if (blobBaseFee !== undefined) block.header.getBlobGasPrice = () => blobBaseFee
}

const DELEGATION_PREFIX = new Uint8Array([0xef, 0x01, 0x00])

/**
 * geth lets a simulated call come from an account with code (it skips EIP-3607). @ethereumjs's runTx has no
 * switch for it but accepts an EIP-7702-delegated sender, so its one read of the sender's code before the run
 * answers a delegation marker; the run itself reads the real code.
 */
async function allowContractSender(vm: VM, sender: Address): Promise<() => void> {
  const state = vm.stateManager
  const code = await state.getCode(sender)
  const plain = code.length > 0 && !(code[0] === 0xef && code[1] === 0x01 && code[2] === 0x00)
  if (!plain) return () => {}
  const own = state as { getCode: VM['stateManager']['getCode'] }
  const restore = () => Reflect.deleteProperty(own, 'getCode')
  own.getCode = async (address) => {
    if (!address.equals(sender)) return Object.getPrototypeOf(state).getCode.call(state, address)
    restore()
    return DELEGATION_PREFIX
  }
  return restore
}

function revertMessage(data: Uint8Array): string {
  const reason = revertReason(data)
  return reason === undefined ? 'execution reverted' : `execution reverted: ${reason}`
}

function receiptLogs(result: RunTxResult): LogBody[] {
  return result.receipt.logs.map(([address, topics, data]) => ({ address, topics, data }))
}
