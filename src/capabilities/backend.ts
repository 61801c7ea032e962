/**
 * What the service needs of a chain backend (the embedded chain now, a follower next): one reader per
 * endpoint and the submit, execute and dev-account capabilities the handlers share.
 */
import type { Common } from '@ethereumjs/common'
import type { Endpoint } from '../../generated/methods.js'
import type { DevAccounts } from './accounts.js'
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
}
