/**
 * The pool's refusals of a zero-priced transaction the gasless whitelist does not cover (xlayer-reth's
 * admission gate, okx/optimism 3349a7c rust/op-reth/crates/txpool/src/validator.rs: `Underpriced` when the
 * whitelist says no, `MaxTxGasLimitExceeded` when the transaction asks for more gas than it allows).
 */
import { TransactionRejectedError } from './rpc-error.js'

export class GaslessNotWhitelistedError extends TransactionRejectedError {
  static readonly template =
    'transaction underpriced: a zero-priced transaction must call a target on the gasless whitelist (<address>)'
  constructor(whitelist: string) {
    super(
      `transaction underpriced: a zero-priced transaction must call a target on the gasless whitelist (${whitelist})`,
    )
  }
}

export class GaslessGasLimitExceededError extends TransactionRejectedError {
  static readonly template = "gasless transaction gas limit <N> exceeds the whitelist's allowance <M>"
  constructor(gasLimit: bigint, allowance: bigint) {
    super(`gasless transaction gas limit ${gasLimit} exceeds the whitelist's allowance ${allowance}`)
  }
}
