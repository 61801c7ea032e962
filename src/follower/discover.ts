/**
 * Finds the storage a flashblock's contract calls will read before they run for real. Executed one after
 * another, each transaction would stop at its first unknown slot and wait a round trip (111 sequential
 * requests for 100 ERC-20 transfers). Here every call runs at once, each on its own throw-away copy of the
 * state, so their misses land in the same upstream batch: a few rounds instead of one per slot. Results
 * are discarded; only the snapshot's cache keeps what they read. Skipped when the snapshot already knows
 * every sender and recipient (a later flashblock of the same accounts, or a warm block).
 */
import type { EVM } from '@ethereumjs/evm'
import { Address } from '@ethereumjs/util'
import type { TxRecord } from '../domain/types.js'
import { UpstreamUnavailableError } from '../errors.js'
import type { UpstreamSnapshot } from './upstream-snapshot.js'
import { discoveryCopy } from '../evm/patches/discovery-evm.js'

export function needsDiscovery(snapshot: UpstreamSnapshot, txs: readonly TxRecord[]): boolean {
  return txs.some(({ tx, sender }) => !snapshot.has(sender) || (tx.to !== undefined && !snapshot.has(tx.to.bytes)))
}

/**
 * Rejects with the upstream's failure if a run met one (once every run settled): the real execution would
 * ask the upstream that just failed for the same reads and wait out a second deadline.
 */
export async function discoverReads(evm: EVM, txs: readonly TxRecord[]): Promise<void> {
  let unavailable: UpstreamUnavailableError | undefined
  await Promise.all(
    txs
      .filter(({ tx }) => tx.to !== undefined && tx.data.length > 0)
      .map(async ({ tx, sender }) => {
        try {
          await discoveryCopy(evm).runCall({
            caller: new Address(sender),
            origin: new Address(sender),
            to: tx.to,
            value: tx.value,
            data: tx.data,
            gasLimit: tx.gasLimit,
          })
        } catch (err) {
          // a speculative run may fail (balance, a read the upstream refused): the real execution decides
          if (err instanceof UpstreamUnavailableError) unavailable ??= err
        }
      }),
  )
  if (unavailable) throw unavailable
}
