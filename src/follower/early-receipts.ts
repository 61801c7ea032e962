/**
 * Receipts served the moment their feed frame arrives, ahead of re-execution: where the feed's metadata
 * carries receipts (X Layer sends them, Base no longer does), each transaction of the frame is located in a
 * provisional pending block (the frame's number and hash, the block's base fee and timestamp) with the
 * feed's receipt completed by receiptsFromFeed. Frames are followed in arrival order with the same
 * sequence rules as re-execution, so positions and log indexes are the block's. A provisional receipt lives
 * until re-execution of its frame is done (the pending store answers from then on, re-execution winning
 * over the feed) or its block is dropped (gap, failed re-execution, idle feed, reorg, canonical block):
 * a client never keeps seeing a receipt pending no longer holds.
 */
import type { EarlyReceiptsStats } from '../capabilities/backend-status.js'
import { type BlockHeader, type HeaderData, createBlockHeader } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import { adoptCommon, callCommon } from '../evm/chain-common.js'
import { openFollowedBlock } from '../evm/open-block.js'
import { assembleBlock, keyOf } from '../domain/block-record.js'
import type { BlockRecord, FlashblockPayload, ReceiptRecord, TxLocation, TxRecord } from '../domain/types.js'
import { FOLLOWER_PENDING_MAX_AHEAD_BLOCKS } from '../limits.js'
import { classifyFlashblock, type SequencePosition } from '../pending/sequence.js'
import { receiptsFromFeed } from './feed-receipt.js'
import { decodeFeedTx, type KnownTxs } from './feed-txs.js'

/** The block the frames are building, as the feed tells it. */
interface Building {
  readonly position: SequencePosition
  readonly headerData: HeaderData
  readonly baseFee: bigint
  readonly txs: readonly TxRecord[]
  readonly receipts: readonly ReceiptRecord[]
  /** False once a frame came without a receipt for each of its transactions: nothing early for this block. */
  readonly complete: boolean
}

export interface EarlyReceiptsOptions {
  common: Common
  /** The upstream head: frames at or below it are stale, too far above it are not followed. */
  canonicalHeight: () => bigint
  /** Transactions decoded here already (forwarded ones): not decoded again. */
  known?: KnownTxs
}

export class EarlyReceipts {
  readonly stats: EarlyReceiptsStats = { received: 0, served: 0, withdrawn: 0 }
  private building: Building | undefined
  /** Transaction hash -> its block number and position, while its frame awaits re-execution. */
  private readonly located = new Map<string, { readonly number: bigint; readonly index: number }>()
  /**
   * The provisional block of each number as of its newest frame: a receipt carries that frame's hash, as a
   * re-executed one carries the pending block's hash as of the newest flashblock.
   */
  private readonly blocks = new Map<bigint, BlockRecord>()

  constructor(private readonly options: EarlyReceiptsOptions) {}

  /**
   * A frame arrived: its receipts are served from now on. Returns the frame's decoded transactions, so
   * re-execution does not recover the senders again (undefined when nothing was decoded).
   */
  onFrame(payload: FlashblockPayload): readonly TxRecord[] | undefined {
    const height = this.options.canonicalHeight()
    const verdict = classifyFlashblock(this.building?.position, payload, height)
    // re-execution skips a frame too far above the head too (and ignores duplicates and stale ones)
    const tooFar = payload.metadata.blockNumber - height > BigInt(FOLLOWER_PENDING_MAX_AHEAD_BLOCKS)
    if (verdict.kind === 'duplicate' || verdict.kind === 'stale' || tooFar) return undefined
    if (verdict.kind === 'break') {
      // re-execution drops pending at the same frame: withdraw now rather than when it gets there
      this.clear()
      return undefined
    }
    const building = verdict.kind === 'start' ? this.open(payload) : this.building!
    const position = { ...building.position, index: payload.index }
    const { transactions } = payload.diff
    if (!building.complete || (transactions.length > 0 && payload.metadata.receipts.length === 0)) {
      this.building = { ...building, position, complete: false }
      return undefined
    }
    let txs: TxRecord[]
    try {
      txs = transactions.map((raw) => decodeFeedTx(raw, this.options.common, this.options.known))
    } catch {
      // re-execution will drop the block and say why
      this.building = { ...building, position, complete: false }
      return undefined
    }
    const last = building.receipts.at(-1)
    const cursor = {
      cumulativeGasUsed: last?.cumulativeGasUsed ?? 0n,
      logCount: last ? last.firstLogIndex + last.logs.length : 0,
    }
    const receipts = receiptsFromFeed(txs, payload.metadata.receipts, cursor, building.baseFee, this.options.common)
    if (!receipts) {
      this.building = { ...building, position, complete: false }
      return txs
    }
    const next: Building = {
      ...building,
      position,
      txs: building.txs.concat(txs),
      receipts: building.receipts.concat(receipts),
    }
    this.building = next
    const { number } = next.position
    const shown = this.blocks.get(number)
    // nothing waits on this block, or an empty frame left its header (and hash) as it was
    if (txs.length === 0 && (!shown || keyOf(shown.hash) === keyOf(payload.diff.blockHash))) return txs
    this.blocks.set(number, assembleBlock(this.header(next, payload), payload.diff.blockHash, next.txs, next.receipts))
    const first = building.txs.length
    txs.forEach((tx, i) => this.located.set(keyOf(tx.hash), { number, index: first + i }))
    this.stats.received += txs.length
    return txs
  }

  /** A provisional location of a transaction whose frame has not been re-executed yet. */
  tx(hash: Uint8Array): TxLocation | undefined {
    const at = this.located.get(keyOf(hash))
    const block = at && this.blocks.get(at.number)
    if (!at || !block) return undefined
    return { block, index: at.index, tx: block.txs[at.index], receipt: block.receipts[at.index], pending: true }
  }

  /** tx() for a client's lookup: counted in stats.served. */
  serve(hash: Uint8Array): TxLocation | undefined {
    const found = this.tx(hash)
    if (found) this.stats.served++
    return found
  }

  /** Re-execution of these transactions' frame is done: the pending store (or nobody) answers for them now. */
  settle(txs: readonly { readonly hash: Uint8Array }[]): void {
    for (const { hash } of txs) this.located.delete(keyOf(hash))
    if (this.located.size === 0) this.blocks.clear()
  }

  /** The upstream's head reached `height`: the canonical blocks answer for everything at or below it. */
  settleCanonical(height: bigint): void {
    this.withdraw((number) => number <= height, false)
  }

  /** Block `number` was dropped: its provisional receipts and those of any block after it go. */
  forgetFrom(number: bigint): void {
    this.withdraw((n) => n >= number, true)
  }

  /** Pending was dropped whole (idle feed, gap, reorg). */
  clear(): void {
    this.withdraw(() => true, true)
  }

  /** `counted`: the block was dropped (a canonical block replacing a provisional receipt is no withdrawal). */
  private withdraw(dropped: (number: bigint) => boolean, counted: boolean): void {
    if (this.building && dropped(this.building.position.number)) this.building = undefined
    for (const number of this.blocks.keys()) if (dropped(number)) this.blocks.delete(number)
    for (const [key, at] of this.located) {
      if (!dropped(at.number)) continue
      this.located.delete(key)
      if (counted) this.stats.withdrawn++
    }
  }

  private open(payload: FlashblockPayload): Building {
    const base = payload.base!
    const { headerData } = openFollowedBlock({ base, payloadId: payload.payloadId }, this.options.common)
    return {
      position: { payloadId: payload.payloadId, number: base.blockNumber, index: -1 },
      headerData,
      baseFee: base.baseFeePerGas,
      txs: [],
      receipts: [],
      complete: true,
    }
  }

  /** The header as the frame announces it (its roots, bloom and gas; the hash is the frame's). */
  private header(building: Building, payload: FlashblockPayload): BlockHeader {
    const { diff } = payload
    return adoptCommon(
      createBlockHeader(
        {
          ...building.headerData,
          stateRoot: diff.stateRoot,
          receiptTrie: diff.receiptsRoot,
          logsBloom: diff.logsBloom,
          gasUsed: diff.gasUsed,
          withdrawalsRoot: diff.withdrawalsRoot,
        },
        { common: callCommon(this.options.common), freeze: false },
      ),
      this.options.common,
    )
  }
}
