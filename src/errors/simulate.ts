/**
 * eth_simulateV1's errors, with geth's codes (execution-apis' -380xx range). A call that a real block could
 * not hold fails the whole request with its transaction's reason, worded as geth (`err: <reason> (supplied
 * gas N)`); a call that runs and reverts does not (its error is in its own result).
 */
import { InternalError, InvalidInputError, InvalidParamsError, RpcError } from './rpc-error.js'

function coded(code: number, template: string) {
  return class extends RpcError {
    static override readonly code = code
    static readonly template = template
  }
}

const supplied = (reason: string, gas: bigint) => `err: ${reason} (supplied gas ${gas})`

export class SimulateNonceTooLowError extends coded(-38010, 'err: nonce too low: <reason> (supplied gas <N>)') {
  constructor(reason: string, gas: bigint) {
    super(supplied(`nonce too low: ${reason}`, gas))
  }
}
export class SimulateNonceTooHighError extends coded(-38011, 'err: nonce too high: <reason> (supplied gas <N>)') {
  constructor(reason: string, gas: bigint) {
    super(supplied(`nonce too high: ${reason}`, gas))
  }
}
export class SimulateBaseFeeTooLowError extends coded(
  -38012,
  'err: max fee per gas less than block base fee: <reason> (supplied gas <N>)',
) {
  constructor(reason: string, gas: bigint) {
    super(supplied(`max fee per gas less than block base fee: ${reason}`, gas))
  }
}
export class SimulateIntrinsicGasError extends coded(
  -38013,
  'err: intrinsic gas too low: <reason> (supplied gas <N>)',
) {
  constructor(reason: string, gas: bigint) {
    super(supplied(`intrinsic gas too low: ${reason}`, gas))
  }
}
export class SimulateInsufficientFundsError extends coded(
  -38014,
  'err: insufficient funds for gas * price + value: <reason> (supplied gas <N>)',
) {
  constructor(reason: string, gas: bigint) {
    super(supplied(`insufficient funds for gas * price + value: ${reason}`, gas))
  }
}
export class SimulateBlockGasLimitError extends coded(
  -38015,
  'block gas limit reached: remaining: <N>, required: <M>',
) {
  constructor(remaining: bigint, required: bigint) {
    super(`block gas limit reached: remaining: ${remaining}, required: ${required}`)
  }
}
export class SimulateBlockNumberOrderError extends coded(-38020, 'block numbers must be in order: <N> <= <M>') {
  constructor(number: bigint, previous: bigint) {
    super(`block numbers must be in order: ${number} <= ${previous}`)
  }
}
export class SimulateBlockTimestampOrderError extends coded(-38021, 'block timestamps must be in order: <N> <= <M>') {
  constructor(time: bigint, previous: bigint) {
    super(`block timestamps must be in order: ${time} <= ${previous}`)
  }
}
export class SimulateInitCodeSizeError extends coded(
  -38025,
  'err: max initcode size exceeded: <reason> (supplied gas <N>)',
) {
  constructor(reason: string, gas: bigint) {
    super(supplied(`max initcode size exceeded: ${reason}`, gas))
  }
}
export class SimulateClientLimitError extends coded(-38026, 'too many blocks | too many calls ...') {
  constructor(message: string) {
    super(message)
  }
}
/** A transaction no block could hold for another reason (nonce at its maximum, a tip above its fee cap...). */
export class SimulateInvalidTransactionError extends coded(InternalError.code, 'err: <reason> (supplied gas <N>)') {
  constructor(reason: string, gas: bigint, code: number = InternalError.code) {
    super(supplied(reason, gas), { code })
  }
}
export class SimulateEmptyInputError extends coded(InvalidParamsError.code, 'empty input') {
  constructor() {
    super('empty input')
  }
}
export class NotAPrecompileError extends coded(InvalidInputError.code, 'account <address> is not a precompile') {
  constructor(address: string) {
    super(`account ${address} is not a precompile`)
  }
}
export class PrecompileDestinationOverriddenError extends coded(
  InvalidInputError.code,
  'account <address> is already overridden',
) {
  constructor(address: string) {
    super(`account ${address} is already overridden`)
  }
}
