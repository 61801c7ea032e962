/**
 * geth's named errors (openrpc/errors.yaml), one class each: the class of the same name + `Error`, whose static
 * `template` is the document's message (src/errors.test.ts holds the two together).
 */
import {
  type RpcError,
  InvalidParamsError,
  InvalidInputError,
  TransactionRejectedError,
  LimitExceededError,
  TimeoutError,
} from './rpc-error.js'
import { formatGoDuration } from '../format/go-duration.js'

/** A named error whose text never varies: `new HeaderNotFoundError()`. */
function fixed(base: typeof RpcError, template: string) {
  return class extends base {
    static readonly template = template
    constructor() {
      super(template)
    }
  }
}

/** A named error whose text carries values: the document's template, and the class's own constructor. */
function templated(base: typeof RpcError, template: string) {
  return class extends base {
    static readonly template = template
  }
}

export class HeaderNotFoundError extends fixed(InvalidInputError, 'header not found') {}
export class UnknownBlockError extends fixed(InvalidInputError, 'unknown block') {}
export class ExecutionRevertedEmptyError extends fixed(InvalidInputError, 'execution reverted') {}
export class InsufficientFundsForTransferError extends fixed(InvalidInputError, 'insufficient funds for transfer') {}
export class DataAndInputDifferError extends fixed(
  InvalidInputError,
  'both "data" and "input" are set and not equal. Please use "input" to pass transaction call data',
) {}
export class GasPriceAndFeeCapError extends fixed(
  InvalidInputError,
  'both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified',
) {}
export class UnknownAccountError extends fixed(InvalidInputError, 'unknown account') {}
export class FilterNotFoundError extends fixed(InvalidInputError, 'filter not found') {}
export class TraceTransactionNotFoundError extends fixed(InvalidInputError, 'transaction not found') {}
export class GenesisNotTraceableError extends fixed(InvalidInputError, 'genesis is not traceable') {}
// the pool's refusals, which viem and ethers match by regex
export class NonceTooLowError extends fixed(TransactionRejectedError, 'nonce too low') {}
export class InsufficientFundsError extends fixed(
  TransactionRejectedError,
  'insufficient funds for gas * price + value',
) {}
export class IntrinsicGasTooLowError extends fixed(TransactionRejectedError, 'intrinsic gas too low') {}
export class FloorDataGasTooLowError extends fixed(
  TransactionRejectedError,
  'insufficient gas for floor data gas cost',
) {}
export class ExceedsBlockGasLimitError extends fixed(TransactionRejectedError, 'exceeds block gas limit') {}
export class FeeCapTooLowError extends fixed(TransactionRejectedError, 'max fee per gas less than block base fee') {}
export class TipAboveFeeCapError extends fixed(
  TransactionRejectedError,
  'max priority fee per gas higher than max fee per gas',
) {}
export class InvalidChainIdError extends fixed(TransactionRejectedError, 'invalid chain id') {}
export class InvalidSenderError extends fixed(TransactionRejectedError, 'invalid sender') {}
export class SenderNotEoaError extends fixed(TransactionRejectedError, 'sender not an eoa') {}
export class AlreadyKnownError extends fixed(TransactionRejectedError, 'already known') {}
export class ReplacementUnderpricedError extends fixed(
  TransactionRejectedError,
  'replacement transaction underpriced',
) {}
export class TxPoolFullError extends fixed(TransactionRejectedError, 'txpool is full') {}
export class TxTypeNotSupportedError extends fixed(TransactionRejectedError, 'transaction type not supported') {}
export class OversizedDataError extends fixed(TransactionRejectedError, 'oversized data') {}
export class EmptyAuthListError extends fixed(TransactionRejectedError, 'EIP-7702 transaction with empty auth list') {}
export class InvalidBlockRangeError extends fixed(InvalidParamsError, 'invalid block range params') {}
export class EmptyStorageRequestError extends fixed(InvalidParamsError, 'empty request') {}
export class TooManyStorageSlotsError extends templated(InvalidParamsError, 'too many slots (max 1024)') {
  constructor(max: number) {
    super(`too many slots (max ${max})`)
  }
}
export class BlockRangeBeyondHeadError extends fixed(
  InvalidParamsError,
  'block range extends beyond current head block',
) {}
export class BlockHashWithRangeError extends fixed(
  InvalidParamsError,
  'invalid argument 0: cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other',
) {}
export class TooManyTopicsError extends fixed(InvalidParamsError, 'invalid argument 0: exceed max topics') {}
export class FlashblocksFilterRequiredError extends fixed(
  InvalidParamsError,
  'flashblocks subscription requires filter params, no params specified',
) {}
export class TooManySubscribeAddressesError extends fixed(InvalidParamsError, 'too many subscribe addresses') {}

/** The EVM stopped (out of gas, invalid opcode...): geth's text for the reason. */
export class ExecutionFailedError extends templated(
  InvalidInputError,
  'out of gas | invalid opcode | stack limit reached 1024 | invalid jump destination | write protection | ...',
) {}
export class ExecutionTimeoutError extends templated(TimeoutError, 'execution aborted (timeout = 5s)') {
  constructor(ms: number) {
    super(`execution aborted (timeout = ${formatGoDuration(ms)})`)
  }
}
export class GasRequiredExceedsAllowanceError extends templated(
  InvalidInputError,
  'gas required exceeds allowance (<N>)',
) {
  constructor(gas: bigint) {
    super(`gas required exceeds allowance (${gas})`)
  }
}
export class StateAndStateDiffError extends templated(
  InvalidInputError,
  "account <address> has both 'state' and 'stateDiff'",
) {
  constructor(address: string) {
    super(`account ${address} has both 'state' and 'stateDiff'`)
  }
}
/** debug_traceCall's `txIndex` past the block's transactions, as geth's StateAtTransaction. */
export class TraceTxIndexOutOfRangeError extends templated(
  InvalidInputError,
  'transaction index <N> out of range for block <hash>',
) {
  constructor(index: number, hash: string) {
    super(`transaction index ${index} out of range for block ${hash}`)
  }
}
export class NoTransactionInGenesisError extends fixed(InvalidInputError, 'no transaction in genesis') {}
/** A call's block override that only eth_simulateV1 takes (beaconRoot, withdrawals), as geth refuses it. */
export class BlockOverrideNotSupportedError extends templated(
  InvalidInputError,
  'block override "<field>" is not supported for this RPC method',
) {
  constructor(field: string) {
    super(`block override "${field}" is not supported for this RPC method`)
  }
}
export class InvalidTransactionError extends templated(InvalidInputError, 'invalid transaction: <reason>') {
  constructor(reason: string) {
    super(`invalid transaction: ${reason}`)
  }
}
/** A transaction's RLP integer with a leading zero byte: geth's decoder text (rlp/decode.go), e.g. `*big.Int`, `(types.DynamicFeeTx).ChainID`. */
export class NonCanonicalIntegerError extends templated(
  InvalidInputError,
  'rlp: non-canonical integer (leading zero bytes) for <type>, decoding into (<struct>).<field>',
) {
  constructor(goType: string, field: string) {
    super(`rlp: non-canonical integer (leading zero bytes) for ${goType}, decoding into ${field}`)
  }
}
export class ChainIdMismatchError extends templated(
  InvalidInputError,
  "chainId does not match node's (have=<N>, want=<M>)",
) {
  constructor(have: bigint, want: bigint) {
    super(`chainId does not match node's (have=${have}, want=${want})`)
  }
}
export class TooManyFiltersError extends templated(
  LimitExceededError,
  'too many filters installed: at most 100 per client',
) {
  constructor(max: number) {
    super(`too many filters installed: at most ${max} per client`)
  }
}
export class LogRangeTooWideError extends templated(
  LimitExceededError,
  'query exceeds max block range 10000: blocks <from>..<to> span <N>',
) {
  constructor(max: number, from: bigint, to: bigint) {
    super(`query exceeds max block range ${max}: blocks ${from}..${to} span ${to - from + 1n}`)
  }
}
export class TooManyLogsError extends templated(
  LimitExceededError,
  'query returned more than 10000 results (max logs per response); narrow the block range or the filter',
) {
  constructor(max: number) {
    super(`query returned more than ${max} results (max logs per response); narrow the block range or the filter`)
  }
}
export class FeeHistoryBeyondHeadError extends templated(
  InvalidInputError,
  'request beyond head block: requested <N>, head <M>',
) {
  constructor(requested: bigint, head: bigint) {
    super(`request beyond head block: requested ${requested}, head ${head}`)
  }
}
/** `detail`: the out-of-range value, or `#<i-1>:<p> > #<i>:<q>` for percentiles out of order. */
export class InvalidRewardPercentileError extends templated(
  InvalidInputError,
  'invalid reward percentile: #<i-1>:<p> > #<i>:<q>',
) {
  constructor(detail: string) {
    super(`invalid reward percentile: ${detail}`)
  }
}
export class TooManySubscriptionsError extends templated(
  LimitExceededError,
  'too many subscriptions on this connection (max 100)',
) {
  constructor(max: number) {
    super(`too many subscriptions on this connection (max ${max})`)
  }
}
/** `label`: `#<N>` for a number, the parameter as given for a tag. */
export class TraceBlockNotFoundError extends templated(InvalidInputError, 'block #<N> not found') {
  constructor(label: string) {
    super(`block ${label} not found`)
  }
}
export class TraceBlockHashNotFoundError extends templated(InvalidInputError, 'block <hash> not found') {
  constructor(hash: string) {
    super(`block ${hash} not found`)
  }
}
/** A state read on a block whose state --history has pruned (geth's text for state it no longer holds). */
export class MissingTrieNodeError extends templated(
  InvalidInputError,
  'missing trie node <root> (path ) state <root> is not available: older than --history <N> blocks',
) {
  constructor(root: string, history: number) {
    super(`missing trie node ${root} (path ) state ${root} is not available: older than --history ${history} blocks`)
  }
}
