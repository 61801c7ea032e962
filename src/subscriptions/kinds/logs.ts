/**
 * `logs`: every log of each sealed canonical block that matches the subscription's filter, one log per
 * notification, in block order (geth). Each log is formatted and serialized once for all subscriptions.
 */
import type { LogCriteria } from '../../filters/criteria.js'
import { matchesLog } from '../../filters/criteria.js'
import { expectAtMost } from '../params.js'
import { readLogCriteria } from '../log-filter.js'
import type { FormattedBlock } from '../formatted-block.js'
import type { Subscription, SubscriptionKindSpec } from '../types.js'

export const logs: SubscriptionKindSpec<LogCriteria> = {
  name: 'logs',
  endpoints: ['general', 'flashblocks'],
  parseParams(args) {
    expectAtMost(args, 1)
    return readLogCriteria(args[0], 'filter')
  },
}

/** Sends the logs of transactions `fromTx`.. of a block to the subscriptions whose criteria match. */
export function publishLogs(
  subscriptions: readonly Subscription<LogCriteria>[],
  block: FormattedBlock,
  fromTx = 0,
): void {
  if (subscriptions.length === 0) return
  const receipts = block.record.receipts
  for (let i = fromTx; i < receipts.length; i++) {
    const bodies = receipts[i]!.logs
    for (let j = 0; j < bodies.length; j++) {
      let json: string | undefined
      for (const s of subscriptions) {
        if (!matchesLog(s.params, bodies[j]!)) continue
        s.notify((json ??= JSON.stringify(block.log(i, j))))
      }
    }
  }
}
