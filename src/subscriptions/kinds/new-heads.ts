/** `newHeads`: the header of every sealed canonical block, as geth sends it. */
import { expectAtMost } from '../params.js'
import type { FormattedBlock } from '../formatted-block.js'
import type { Subscription, SubscriptionKindSpec } from '../types.js'

export const newHeads: SubscriptionKindSpec<null> = {
  name: 'newHeads',
  endpoints: ['general', 'flashblocks'],
  parseParams(args) {
    expectAtMost(args, 0)
    return null
  },
}

export function publishNewHeads(subscriptions: readonly Subscription<null>[], block: FormattedBlock): void {
  if (subscriptions.length === 0) return
  const json = block.header()
  for (const s of subscriptions) s.notify(json)
}
