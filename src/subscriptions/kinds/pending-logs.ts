/**
 * `pendingLogs` (Base): the logs of the newest flashblock only (so none is sent twice), one log per message,
 * optionally filtered by `{address, topics}`. Logs carry the pending block's number and its hash as of
 * that flashblock.
 */
import type { LogCriteria } from '../../filters/criteria.js'
import type { FormattedBlock } from '../formatted-block.js'
import type { FlashblockView } from '../flashblock-view.js'
import type { Subscription, SubscriptionKindSpec } from '../types.js'
import { logs, publishLogs } from './logs.js'

export const pendingLogs: SubscriptionKindSpec<LogCriteria> = {
  name: 'pendingLogs',
  endpoints: ['flashblocks'],
  parseParams: logs.parseParams,
}

export function publishPendingLogs(
  subscriptions: readonly Subscription<LogCriteria>[],
  pending: FormattedBlock,
  view: FlashblockView,
): void {
  publishLogs(subscriptions, pending, view.firstNewTx)
}
