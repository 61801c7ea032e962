/**
 * `syncing`: acknowledged, and silent: the embedded chain is its own head and never syncs. geth sends a
 * status only when syncing starts or stops, so a node that never syncs sends nothing.
 */
import { expectAtMost } from '../params.js'
import type { SubscriptionKindSpec } from '../types.js'

export const syncing: SubscriptionKindSpec<null> = {
  name: 'syncing',
  endpoints: ['general', 'flashblocks'],
  parseParams(args) {
    expectAtMost(args, 0)
    return null
  },
}
