/**
 * `newFlashblocks` (Base): at every flashblock, the whole pending block accumulated so far, as an RPC block
 * with full transaction objects (base/node-reth's get_latest_block(true)). Serialized once per flashblock.
 */
import { expectAtMost } from '../params.js'
import type { FormattedBlock } from '../formatted-block.js'
import type { Subscription, SubscriptionKindSpec } from '../types.js'

export const newFlashblocks: SubscriptionKindSpec<null> = {
  name: 'newFlashblocks',
  endpoints: ['flashblocks'],
  parseParams(args) {
    expectAtMost(args, 0)
    return null
  },
}

export function publishNewFlashblock(subscriptions: readonly Subscription<null>[], pending: FormattedBlock): void {
  if (subscriptions.length === 0) return
  const json = pending.block()
  for (const s of subscriptions) s.notify(json)
}
