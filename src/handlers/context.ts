/**
 * What every handler receives besides its params. One handler serves both endpoints: it reads `endpoint`
 * only through the block resolver, never to branch on it (see docs/design/architecture.md).
 */
import type { Chain } from '../chain/chain.js'
import type { Config } from '../config.js'
import type { BlockResolver } from '../pending/resolver.js'
import type { Endpoint, MethodHandlers } from '../../generated/methods.js'

/** Who sent the request: per-client budgets (filters, rate limit) key on the IP. */
export interface ClientInfo {
  /** The socket address, or X-Forwarded-For's client when the socket is a trusted proxy. */
  ip: string
}

export interface HandlerContext {
  endpoint: Endpoint
  config: Config
  client: ClientInfo
  /** The embedded chain: pool, stores, accounts, execution context. */
  chain: Chain
  /** Blocks, transactions and state as this endpoint means them (`pending` differs per endpoint). */
  resolver: BlockResolver
}

/** The handler type of one method, as the generated interface declares it. */
export type Handler<M extends keyof MethodHandlers<HandlerContext>> = MethodHandlers<HandlerContext>[M]
