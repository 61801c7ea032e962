/**
 * What the service needs of a chain backend (the embedded chain, src/chain/, or a follower of an upstream
 * node, src/follower/): one reader per endpoint, the submit, execute and dev-account capabilities the
 * handlers share, and the backend's report on itself for metrics and readiness.
 */
import type { Common } from '@ethereumjs/common'
import type { Endpoint } from '../../generated/methods.js'
import type { DevAccounts } from './accounts.js'
import type { BackendStatus, Readiness } from './backend-status.js'
import type { DevNode } from './dev-node.js'
import type { Executor } from './execute.js'
import type { BlockReader } from './read.js'
import type { TxSubmitter } from './submit.js'

export interface Backend {
  resolverFor(endpoint: Endpoint): BlockReader
  readonly submitter: TxSubmitter
  readonly executor: Executor
  readonly devAccounts: DevAccounts
  /** The chain's rules (fork schedule, parameters): what eth_config reports. */
  readonly common: Common
  /** The dev node's controls; only the embedded chain has them. */
  readonly devNode?: DevNode
  /** Heights and health now: what GET /metrics and /metrics.json show. */
  status(): BackendStatus
  /** Whether this process should be sent traffic now, and if not why (GET /ready). */
  readiness(): Readiness
}
