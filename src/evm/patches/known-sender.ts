/**
 * A transaction whose sender the service already knows answers it from getSenderAddress instead of
 * recovering it from the signature: runTx asks every transaction for its sender, and @ethereumjs keeps only
 * the public key, hashing it again (pure-JS keccak) on each ask. The sender is known when admission recovered
 * it once, when the data directory stored it beside the block, when the dev node impersonates an account, and
 * for the unsigned calls of eth_call and eth_simulateV1 (the sender is what the caller says). The method is
 * public, but replacing it on an instance is a change to how @ethereumjs runs a transaction, so it lives here.
 */
import type { TypedTransaction } from '@ethereumjs/tx'
import { Address } from '@ethereumjs/util'

/** Makes `tx` (not yet frozen) answer `sender` as its sender. */
export function setKnownSender(tx: TypedTransaction, sender: Uint8Array | Address): void {
  const answer = sender instanceof Address ? () => sender : () => new Address(sender)
  ;(tx as { getSenderAddress: () => Address }).getSenderAddress = answer
}
