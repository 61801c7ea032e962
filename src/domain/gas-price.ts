/** What a transaction pays per gas: the receipt's effectiveGasPrice and, in a block, the transaction's `gasPrice`. */
import type { TypedTransaction } from '@ethereumjs/tx'

/**
 * baseFee + min(tip, maxFee - baseFee) for a type-2/4 transaction (its fee cap when no base fee is known,
 * e.g. in the pool), the gas price for legacy and 2930, as geth reports them.
 */
export function effectiveGasPrice(tx: TypedTransaction, baseFee: bigint | undefined): bigint {
  if ('maxFeePerGas' in tx) {
    if (baseFee === undefined) return tx.maxFeePerGas
    const tip =
      tx.maxPriorityFeePerGas < tx.maxFeePerGas - baseFee ? tx.maxPriorityFeePerGas : tx.maxFeePerGas - baseFee
    return baseFee + tip
  }
  return (tx as { gasPrice: bigint }).gasPrice
}
