/**
 * The follower's canonical store: the most recent `depth` upstream blocks as the same BlockRecords the
 * embedded CanonicalStore holds (transactions, receipts, logs with positions), dense by number and linked
 * by parent hash, answering the same lookups. Older blocks fall off the bottom; reads of them are the
 * upstream's to answer. A reorg rewinds the top and appends the new branch.
 */
import { equalsBytes } from '@ethereumjs/util'
import { keyOf } from '../domain/block-record.js'
import type { BlockRecord, TxLocation } from '../domain/types.js'
import { FOLLOWER_CACHE_BLOCKS } from '../limits.js'

export class BlockCache {
  readonly depth: number
  /** Ascending and dense: blocks[i].number === blocks[0].number + i. */
  private blocks: BlockRecord[] = []
  private readonly byHashKey = new Map<string, BlockRecord>()
  private readonly txIndex = new Map<string, { number: bigint; index: number }>()

  constructor(depth: number = FOLLOWER_CACHE_BLOCKS) {
    if (!Number.isInteger(depth) || depth < 1) throw new Error(`cache depth must be a positive integer, not ${depth}`)
    this.depth = depth
  }

  get size(): number {
    return this.blocks.length
  }

  /** The cached head (named as CanonicalStore's, so readers can take either). */
  latest(): BlockRecord | undefined {
    return this.blocks[this.blocks.length - 1]
  }

  get height(): bigint | undefined {
    return this.latest()?.number
  }

  /** The lowest block still cached. */
  oldest(): BlockRecord | undefined {
    return this.blocks[0]
  }

  /** Whether block `number` is inside the cached window (an absent lookup there means "not canonical"). */
  covers(number: bigint): boolean {
    const first = this.blocks[0]
    return first !== undefined && number >= first.number && number <= this.latest()!.number
  }

  byNumber(number: bigint): BlockRecord | undefined {
    return this.covers(number) ? this.blocks[Number(number - this.blocks[0].number)] : undefined
  }

  blockByHash(hash: Uint8Array): BlockRecord | undefined {
    return this.byHashKey.get(keyOf(hash))
  }

  tx(hash: Uint8Array): TxLocation | undefined {
    const at = this.txIndex.get(keyOf(hash))
    const block = at && this.byNumber(at.number)
    if (!at || !block) return undefined
    return { block, index: at.index, tx: block.txs[at.index], receipt: block.receipts[at.index], pending: false }
  }

  /** Cached blocks from..to inclusive, clamped to the window (for log queries; the rest is the upstream's). */
  *range(from: bigint, to: bigint): Iterable<BlockRecord> {
    const first = this.blocks[0]
    if (!first) return
    const last = this.latest()!.number
    for (let n = from < first.number ? first.number : from; n <= (to < last ? to : last); n++) {
      yield this.blocks[Number(n - first.number)]
    }
  }

  /**
   * Adds the next canonical block: the first block, or the child of the head (number and parent hash).
   * Evicts the oldest block past the depth.
   */
  append(block: BlockRecord): void {
    const head = this.latest()
    if (head) {
      if (block.number !== head.number + 1n)
        throw new Error(`block ${block.number} does not follow the cached head ${head.number}`)
      if (!equalsBytes(block.header.parentHash, head.hash))
        throw new Error(`block ${block.number} is not a child of the cached head`)
    }
    this.blocks.push(block)
    this.byHashKey.set(keyOf(block.hash), block)
    for (let i = 0; i < block.txs.length; i++)
      this.txIndex.set(keyOf(block.txs[i].hash), { number: block.number, index: i })
    while (this.blocks.length > this.depth) this.forget(this.blocks.shift()!)
  }

  /** Drops every block above `number` (a reorg's replaced blocks) and returns them in ascending order. */
  rewindTo(number: bigint): BlockRecord[] {
    const first = this.blocks[0]
    if (!first) return []
    const keep = number < first.number ? 0 : Math.min(this.blocks.length, Number(number - first.number) + 1)
    const removed = this.blocks.splice(keep)
    for (const block of removed) this.forget(block)
    return removed
  }

  /** Drops everything (a reorg deeper than the cache); returns what was cached, ascending. */
  clear(): BlockRecord[] {
    const first = this.blocks[0]
    return first ? this.rewindTo(first.number - 1n) : []
  }

  private forget(block: BlockRecord): void {
    // a re-included transaction may already point at its new block: only drop entries that point here
    this.byHashKey.delete(keyOf(block.hash))
    for (const tx of block.txs) {
      const key = keyOf(tx.hash)
      if (this.txIndex.get(key)?.number === block.number) this.txIndex.delete(key)
    }
  }
}
