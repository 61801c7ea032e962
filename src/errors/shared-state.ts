/** Errors of the state replicas share through Redis (`--redis-url`): polling filters. */
import { RpcError } from './rpc-error.js'

/**
 * -32603 naming the cause: the Redis that holds the shared filters did not answer in time. A filter is
 * never served from a replica's own memory instead, since another replica would then see a different one.
 */
export class SharedStateUnavailableError extends RpcError {
  static override readonly code = -32603
  constructor(cause: string) {
    super(`shared filter store unavailable: ${cause}`)
  }
}
