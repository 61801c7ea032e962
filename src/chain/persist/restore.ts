/**
 * After a restart: the block that was in progress is rebuilt from the flashblock journal (same
 * transactions, same order, so every preconfirmed receipt lands at the same number and index), then the
 * journaled pool transactions are submitted again, as geth does with its local transaction journal.
 */
import type { Common } from '@ethereumjs/common'
import type { TxRecord } from '../../domain/types.js'
import type { Sequencer } from '../sequencer.js'
import type { TxPool } from '../pool/pool.js'
import { decodeChainTx, decodeImpersonated } from '../dev/impersonation.js'
import type { Persistence } from './persistence.js'
import type { ChainEvents, TypedEmitter } from '../../evm/events.js'

export async function restoreInProgress(
  persistence: Persistence,
  head: bigint,
  deps: {
    common: Common
    sequencer: Sequencer
    pool: TxPool
    events: TypedEmitter<ChainEvents>
    info: (m: string) => void
    warn: (m: string) => void
  },
): Promise<void> {
  // a dropped or replaced transaction need not come back after the next restart
  deps.events.on('droppedTransaction', (tx) => void persistence.forget(tx.hash).catch(() => {}))
  await persistence.dropStaleJournal(head)
  const journal = await persistence.journal(head)
  if (journal.length > 0) {
    const groups: TxRecord[][] = journal.map((r) => r.transactions.map((raw) => decodeChainTx(raw, deps.common)))
    const lost = await deps.sequencer.resume(journal[0].params, groups)
    for (const tx of lost) deps.warn(`journaled transaction ${hex(tx.hash)} did not execute again after restart`)
    deps.info(`block ${head + 1n} rebuilt from the journal: ${journal.length} flashblocks, ${groups.flat().length} txs`)
  }
  const pooled = await persistence.pooled()
  let resubmitted = 0
  for (const { hash, raw } of pooled) {
    try {
      // an impersonated transaction comes back as impersonated: its bytes carry no key's signature
      const impersonated = decodeImpersonated(raw, deps.common)
      await (impersonated ? deps.pool.admit(impersonated) : deps.pool.add(raw))
      resubmitted++
    } catch {
      // mined, replaced or no longer valid: nothing left to keep
      await persistence.forget(hash)
    }
  }
  if (pooled.length) deps.info(`pool journal: ${resubmitted} of ${pooled.length} transactions resubmitted`)
}

function hex(bytes: Uint8Array): string {
  return `0x${Buffer.from(bytes).toString('hex')}`
}
