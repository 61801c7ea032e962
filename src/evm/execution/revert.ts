/**
 * Turning an EVM outcome into geth's errors: revert data decoded as Error(string) or Panic(uint256) for the
 * message (`execution reverted: <reason>`, code 3 with the data), and geth's texts for other failures.
 */
import { bytesToHex } from '@ethereumjs/util'
import type { EVMResult } from '@ethereumjs/evm'
import {
  ExecutionFailedError,
  ExecutionRevertedEmptyError,
  ExecutionRevertedError,
  FeeCapTooLowError,
  InsufficientFundsError,
  IntrinsicGasTooLowError,
  InvalidInputError,
  SenderNotEoaError,
  TipAboveFeeCapError,
} from '../../errors.js'

const ERROR_SELECTOR = '08c379a0'
const PANIC_SELECTOR = '4e487b71'

/** Solidity's panic codes, worded as geth's abi.UnpackRevert words them. */
const PANIC_REASONS: Record<number, string> = {
  0x00: 'generic panic',
  0x01: 'assert(false)',
  0x11: 'arithmetic underflow or overflow',
  0x12: 'division or modulo by zero',
  0x21: 'enum overflow',
  0x22: 'invalid encoded storage byte array accessed',
  0x31: 'out-of-bounds array access; popping on an empty array',
  0x32: 'out-of-bounds access of an array or bytesN',
  0x41: 'out of memory',
  0x51: 'uninitialized function',
}

export function revertReason(data: Uint8Array): string | undefined {
  const hex = bytesToHex(data).slice(2)
  try {
    if (hex.startsWith(ERROR_SELECTOR) && hex.length >= 8 + 128) {
      const offset = Number.parseInt(hex.slice(8, 72), 16) * 2
      const length = Number.parseInt(hex.slice(8 + offset, 8 + offset + 64), 16)
      const body = hex.slice(8 + offset + 64, 8 + offset + 64 + length * 2)
      if (body.length !== length * 2) return undefined
      return Buffer.from(body, 'hex').toString('utf8')
    }
    if (hex.startsWith(PANIC_SELECTOR) && hex.length === 8 + 64) {
      const code = Number.parseInt(hex.slice(8), 16)
      return `${PANIC_REASONS[code] ?? 'unknown panic code'}: 0x${code.toString(16)}`
    }
  } catch {
    return undefined
  }
  return undefined
}

/** Throws the geth error for a failed execution; returns quietly for a successful one. */
export function assertSucceeded(result: {
  execResult: Pick<EVMResult['execResult'], 'exceptionError' | 'returnValue'>
}): void {
  const error = result.execResult.exceptionError
  if (!error) return
  if (error.error === 'revert') {
    const data = result.execResult.returnValue
    if (data.length === 0) throw new ExecutionRevertedEmptyError()
    throw new ExecutionRevertedError(bytesToHex(data), revertReason(data))
  }
  throw new ExecutionFailedError(gethExecutionError(error.error))
}

/** ethereumjs's EVM error names in geth's words (core/vm/errors.go). */
export function gethExecutionError(error: string): string {
  if (error === 'revert') return 'execution reverted'
  if (error === 'out of gas') return 'out of gas'
  if (error === 'invalid opcode') return 'invalid opcode'
  if (error === 'stack overflow') return 'stack limit reached 1024'
  if (error.includes('stack underflow')) return 'stack underflow'
  if (error === 'invalid JUMP') return 'invalid jump destination'
  if (error.includes('static state change')) return 'write protection'
  if (error.includes('code store out of gas')) return 'contract creation code storage out of gas'
  if (error.includes('code size to deposit exceeds')) return 'max code size exceeded'
  return error
}

/** runTx's own refusals (before any execution) in geth's words. */
export function gethPrecheckError(err: unknown): InvalidInputError {
  const message = err instanceof Error ? err.message : String(err)
  if (message.includes('enough funds')) return new InsufficientFundsError()
  if (message.includes('gasLimit is too low') || message.includes('intrinsic')) return new IntrinsicGasTooLowError()
  if (message.includes('baseFeePerGas')) return new FeeCapTooLowError()
  if (message.includes('not EOA')) return new SenderNotEoaError()
  if (message.includes('maxPriorityFeePerGas')) return new TipAboveFeeCapError()
  return new InvalidInputError(message.replace(/ \(.*$/s, ''))
}
