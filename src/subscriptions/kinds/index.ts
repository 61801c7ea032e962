/** Every subscription kind, in the order eth_subscribe documents them. */
import type { SubscriptionKindSpec } from '../types.js'
import { logs } from './logs.js'
import { newFlashblockTransactions } from './new-flashblock-transactions.js'
import { newFlashblocks } from './new-flashblocks.js'
import { newHeads } from './new-heads.js'
import { newPendingTransactions } from './new-pending-transactions.js'
import { pendingLogs } from './pending-logs.js'
import { syncing } from './syncing.js'
import { xlayerFlashblocks } from './xlayer-flashblocks.js'

export const ALL_KINDS: readonly SubscriptionKindSpec<unknown>[] = [
  newHeads,
  logs,
  newPendingTransactions,
  syncing,
  newFlashblocks,
  pendingLogs,
  newFlashblockTransactions,
  xlayerFlashblocks,
]
