/**
 * The pending block as of the newest flashblock. It consumes Flashblock values and does not care who
 * made them (the local sequencer now, a follower's feed decoder later). Each applied flashblock builds
 * one new immutable snapshot and swaps it in with a single assignment, so a reader sees a whole
 * flashblock or the previous one, never half. Sequence rules in sequence.ts: index 0 starts a block; a
 * duplicate is ignored; a gap or a foreign payload id drops the pending block until the next index 0; a
 * canonical block at or past the pending height clears it.
 */
import { equalsBytes } from '@ethereumjs/util'
import { assembleBlock, keyOf } from '../domain/block-record.js'
import type { BlockRecord, Flashblock, ReceiptRecord, TxLocation, TxRecord } from '../domain/types.js'
import { classifyFlashblock } from './sequence.js'

export interface PendingSnapshot {
  readonly payloadId: Uint8Array
  /** Index of the newest flashblock applied. */
  readonly index: number
  /** number = latest + 1, hash = the header hash as of this flashblock; receipts/logs carry both. */
  readonly block: BlockRecord
  readonly stateRoot: Uint8Array
  /** Position of a transaction in this snapshot's block, if it is there. */
  indexOf(hash: Uint8Array): number | undefined
}

export interface PendingStoreOptions {
  /** Height of the canonical chain: a flashblock for a block at or below it is stale. */
  canonicalHeight: () => bigint
  warn?: (message: string) => void
}

/** The block being assembled: arrays grow per flashblock; snapshots copy them, the index map is shared. */
interface Building {
  readonly payloadId: Uint8Array
  readonly number: bigint
  readonly txs: readonly TxRecord[]
  readonly receipts: readonly ReceiptRecord[]
  readonly positions: Map<string, number>
  readonly index: number
}

export class PendingStore {
  private snapshot: PendingSnapshot | undefined
  private building: Building | undefined

  constructor(private readonly options: PendingStoreOptions) {}

  /** The pending block as of the newest flashblock, or undefined (start-up, after sealing, after a gap). */
  current(): PendingSnapshot | undefined {
    return this.snapshot
  }

  /** Applies the next flashblock; returns false (and keeps or drops state as the rules say) if out of sequence. */
  apply(fb: Flashblock): boolean {
    const verdict = classifyFlashblock(this.building, fb, this.options.canonicalHeight())
    if (verdict.kind === 'duplicate' || verdict.kind === 'stale') return false
    if (verdict.kind === 'break') return this.reject(verdict.reason)
    const building: Building =
      verdict.kind === 'start'
        ? {
            payloadId: fb.payloadId,
            number: fb.metadata.blockNumber,
            txs: [],
            receipts: [],
            positions: new Map(),
            index: -1,
          }
        : this.building!
    const { header, txs: newTxs, receipts: newReceipts } = fb.executed
    const first = building.txs.length
    newTxs.forEach((tx, i) => building.positions.set(keyOf(tx.hash), first + i))
    const next: Building = {
      ...building,
      txs: building.txs.concat(newTxs),
      receipts: building.receipts.concat(newReceipts),
      index: fb.index,
    }
    // an empty flashblock repeats the block so far (the builder hands the same header): the same record
    const previous = verdict.kind === 'start' ? undefined : this.snapshot?.block
    const block =
      previous && newTxs.length === 0 && previous.header === header && equalsBytes(previous.hash, fb.diff.blockHash)
        ? previous
        : assembleBlock(header, fb.diff.blockHash, next.txs, next.receipts)
    const positions = next.positions
    const count = next.txs.length
    this.building = next
    this.snapshot = {
      payloadId: fb.payloadId,
      index: fb.index,
      block,
      stateRoot: fb.diff.stateRoot,
      indexOf: (hash) => {
        const at = positions.get(keyOf(hash))
        return at !== undefined && at < count ? at : undefined
      },
    }
    return true
  }

  /** A canonical block arrived: the pending block at or below its height is done. Call after the canonical store has it. */
  onCanonical(block: BlockRecord): void {
    if (this.building && block.number >= this.building.number) this.clear()
  }

  /** A preconfirmed transaction's location in the current snapshot. */
  tx(hash: Uint8Array): TxLocation | undefined {
    const snap = this.snapshot
    const index = snap?.indexOf(hash)
    if (!snap || index === undefined) return undefined
    return { block: snap.block, index, tx: snap.block.txs[index], receipt: snap.block.receipts[index], pending: true }
  }

  clear(): void {
    this.building = undefined
    this.snapshot = undefined
  }

  private reject(message: string): false {
    this.options.warn?.(message)
    this.clear()
    return false
  }
}
