/**
 * `newFlashblockTransactions` (Base): one message per transaction of the newest flashblock; its hash, or with
 * `true` the transaction object flattened with its receipt fields and `logs` (Base's TransactionWithLogs).
 */
import { optionalBoolean } from '../params.js'
import type { FormattedBlock } from '../formatted-block.js'
import type { FlashblockView } from '../flashblock-view.js'
import type { Subscription, SubscriptionKindSpec } from '../types.js'

export const newFlashblockTransactions: SubscriptionKindSpec<boolean> = {
  name: 'newFlashblockTransactions',
  endpoints: ['flashblocks'],
  parseParams: (args) => optionalBoolean(args, 'full'),
}

/** Base v0.8: the transaction fields, then the receipt's outcome fields, then its logs. */
function transactionWithLogs(pending: FormattedBlock, i: number): Record<string, unknown> {
  const r = pending.receipt(i)
  return {
    ...pending.tx(i),
    status: r.status,
    gasUsed: r.gasUsed,
    cumulativeGasUsed: r.cumulativeGasUsed,
    effectiveGasPrice: r.effectiveGasPrice,
    contractAddress: r.contractAddress,
    logsBloom: r.logsBloom,
    logs: r.logs,
  }
}

export function publishFlashblockTransactions(
  subscriptions: readonly Subscription<boolean>[],
  pending: FormattedBlock,
  view: FlashblockView,
): void {
  if (subscriptions.length === 0) return
  for (let i = view.firstNewTx; i < view.block.txs.length; i++) {
    let hash: string | undefined
    let full: string | undefined
    for (const s of subscriptions) {
      if (s.params) s.notify((full ??= JSON.stringify(transactionWithLogs(pending, i))))
      else s.notify((hash ??= JSON.stringify(pending.tx(i).hash)))
    }
  }
}
