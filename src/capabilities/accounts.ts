/**
 * The unlocked dev accounts behind eth_accounts, eth_sendTransaction and eth_sign: the embedded chain's
 * funded genesis accounts; a follower may hold keys of its own or none.
 */
import type { FilledRequest } from '../domain/call-request.js'
import type { DevAccount } from '../domain/types.js'

export interface DevAccounts {
  /** In derivation order. */
  readonly all: readonly DevAccount[]
  /** The request signed by the account, as EIP-2718 bytes ready for sendRawTransaction. */
  signTransaction(account: DevAccount, request: FilledRequest): Uint8Array
}
