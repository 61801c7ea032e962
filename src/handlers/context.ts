/**
 * What every handler receives besides its params: the capabilities it acts through, never the chain
 * itself, so a follower backend serves the same handlers. One handler serves both endpoints: it reads
 * `endpoint` only through the block reader, never to branch on it (see docs/design/architecture.md).
 */
import type { Common } from '@ethereumjs/common'
import type { DevAccounts } from '../capabilities/accounts.js'
import type { DevNode } from '../capabilities/dev-node.js'
import type { Backend } from '../capabilities/backend.js'
import type { Executor } from '../capabilities/execute.js'
import type { FlashblocksStatus } from '../capabilities/flashblocks.js'
import type { BlockReader } from '../capabilities/read.js'
import type { TxSubmitter } from '../capabilities/submit.js'
import { devMethodsServed, type Config } from '../config.js'
import type { FilterStore } from '../filters/store.js'
import type { Endpoint, MethodHandlers } from '../../generated/methods.js'

/** Who sent the request: per-client budgets (filters, rate limit) key on the IP. */
export interface ClientInfo {
  /** The socket address, or X-Forwarded-For's client when the socket is a trusted proxy. */
  ip: string
}

/** The settings handlers read, and only those: the chain id they answer and sign with, and two switches. */
type HandlerSettings = Readonly<Pick<Config, 'chainId' | 'devAccounts' | 'sendSyncTimeoutMs'>>

export interface HandlerContext {
  endpoint: Endpoint
  config: HandlerSettings
  client: ClientInfo
  /** Blocks, transactions, receipts and state as this endpoint means them (`pending` differs per endpoint). */
  resolver: BlockReader
  submit: TxSubmitter
  execution: Executor
  accounts: DevAccounts
  /** The polling filters, shared by both endpoints (and, with --redis-url, by every replica). */
  filters: FilterStore
  /** The chain's fork schedule and parameters. */
  common: Common
  /** Whether flashblocks are being received, and from which peers (X Layer's status methods). */
  flashblocks: FlashblocksStatus
  /** The dev node's controls; undefined where dev methods are off (the dispatcher answers -32601 before, rpc.discover leaves them out). */
  dev: DevNode | undefined
}

/** The context factory the transport calls per request, over one backend and one filter registry. */
export function handlerContexts(
  backend: Backend,
  config: Config,
  filters: FilterStore,
  flashblocks: FlashblocksStatus,
) {
  const { submitter: submit, executor: execution, devAccounts: accounts, common } = backend
  const dev = devMethodsServed(config) ? backend.devNode : undefined
  const { chainId, devAccounts, sendSyncTimeoutMs } = config
  const settings: HandlerSettings = { chainId, devAccounts, sendSyncTimeoutMs }
  const resolvers = { general: backend.resolverFor('general'), flashblocks: backend.resolverFor('flashblocks') }
  // one literal of one shape per request (an object spread here was a measurable part of a cheap request)
  return (endpoint: Endpoint, client: ClientInfo): HandlerContext => ({
    config: settings,
    filters,
    submit,
    execution,
    accounts,
    common,
    flashblocks,
    dev,
    endpoint,
    client,
    resolver: resolvers[endpoint],
  })
}

/** The handler type of one method, as the generated interface declares it. */
export type Handler<M extends keyof MethodHandlers<HandlerContext>> = MethodHandlers<HandlerContext>[M]
