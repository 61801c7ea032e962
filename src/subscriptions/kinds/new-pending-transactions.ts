/**
 * `newPendingTransactions`: each transaction the pool accepts, as its hash, or with `true` as the full
 * transaction object (geth's fullTx flag; viem's watchPendingTransactions uses the hash form).
 */
import { data } from '../../format/hex.js'
import { formatTransaction } from '../../format/transaction.js'
import { optionalBoolean } from '../params.js'
import type { TxRecord } from '../../domain/types.js'
import type { Subscription, SubscriptionKindSpec } from '../types.js'

export const newPendingTransactions: SubscriptionKindSpec<boolean> = {
  name: 'newPendingTransactions',
  endpoints: ['general', 'flashblocks'],
  parseParams: (args) => optionalBoolean(args, 'fullTx'),
}

export function publishPendingTransaction(subscriptions: readonly Subscription<boolean>[], pooled: TxRecord): void {
  if (subscriptions.length === 0) return
  let hash: string | undefined
  let full: string | undefined
  for (const s of subscriptions) {
    if (s.params) s.notify((full ??= JSON.stringify(formatTransaction(pooled.tx, pooled.sender))))
    else s.notify((hash ??= JSON.stringify(data(pooled.hash))))
  }
}
